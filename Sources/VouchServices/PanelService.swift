import Foundation
import VouchCrypto
import VouchDomain
import VouchStore

/// Panels: named groups of testers ("VoiceOver on iOS"), enrolled in a fix at once and joined through invitations
/// (docs/invitations.md, "Panels"). Only those who manage testers see or change them: who is in a panel may say
/// which assistive technology she uses.
public struct PanelService: Sendable {
    let store: any PanelStore
    let clock: @Sendable () -> Date

    public init(store: any PanelStore, clock: @escaping @Sendable () -> Date) {
        self.store = store
        self.clock = clock
    }

    /// Makes an empty panel.
    /// - Parameter readErrors: what reading the request already found wrong, reported with the rest.
    public func create(name: String?, description: String?, readErrors: [FieldError] = [], by principal: Principal) throws -> Panel {
        try AccessDenied.unless(principal, may: .manageTesters)
        var errors = readErrors
        if let name {
            if let problem = SchemaText.problem(name, limit: Panel.maxNameLength, required: true, lineBreaks: false) {
                errors.append(FieldError(field: "name", message: problem))
            }
        } else if !errors.contains(where: { $0.field == "name" }) {
            errors.append(FieldError(field: "name", message: "is required: what the panel's testers have in common, such as 'VoiceOver on iOS'"))
        }
        if let description, let problem = SchemaText.problem(description, limit: Panel.maxDescriptionLength, required: false, lineBreaks: true) {
            errors.append(FieldError(field: "description", message: problem))
        }
        if !errors.isEmpty { throw ValidationFailure(errors) }
        let trimmedDescription = description?.trimmingCharacters(in: .whitespacesAndNewlines)
        let panel = Panel(id: "p_" + SecureRandom.alphanumeric(count: 12), name: (name ?? "").trimmingCharacters(in: .whitespaces),
                          description: trimmedDescription?.isEmpty == false ? trimmedDescription : nil, createdBy: principal.name, createdAt: clock())
        try store.createPanel(panel, by: Requester(principal))
        return panel
    }

    /// Every panel with its members, by name.
    public func panels(for principal: Principal) throws -> [Panel] {
        try AccessDenied.unless(principal, may: .manageTesters)
        return try store.panels()
    }

    public func panel(_ id: String, for principal: Principal) throws -> Panel {
        try AccessDenied.unless(principal, may: .manageTesters)
        guard let panel = try store.panel(id) else { throw StoreError.notFound(kind: "panel", id: id) }
        return panel
    }

    /// Deletes the panel; its testers stay, and so do their enrollments.
    public func delete(_ id: String, by principal: Principal) throws -> Panel {
        try AccessDenied.unless(principal, may: .manageTesters)
        return try store.deletePanel(id, by: Requester(principal), at: clock())
    }

    /// Adds the testers not in the panel yet.
    /// - Parameter testers: nil when the input named none.
    public func add(_ testers: [String]?, to id: String, readErrors: [FieldError] = [], by principal: Principal) throws -> PanelChange {
        try AccessDenied.unless(principal, may: .manageTesters)
        let errors = readErrors + TesterList.errors(testers, purpose: "add", readErrors: readErrors)
        if !errors.isEmpty { throw ValidationFailure(errors) }
        return try store.addPanelMembers(testers ?? [], to: id, by: Requester(principal), at: clock())
    }

    /// Takes one tester out of the panel; the fixes she was enrolled in keep her.
    public func remove(_ tester: String, from id: String, by principal: Principal) throws -> PanelChange {
        try AccessDenied.unless(principal, may: .manageTesters)
        let change = try store.removePanelMember(tester, from: id, by: Requester(principal), at: clock())
        guard !change.removed.isEmpty else { throw NotFound("tester \(tester) is not in panel \(id)") }
        return change
    }
}
