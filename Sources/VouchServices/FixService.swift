import Foundation
import VouchDomain
import VouchStore

/// Fixes: created, listed, read, edited, and moved through their lifecycle by people's commands.
public struct FixService: Sendable {
    let store: any FixStore & EnrollmentStore
    let promotion: PromotionService
    let clock: @Sendable () -> Date
    /// The languages a fix's text may be written in, and the one a new fix takes unless its author says.
    let languages: FixValidator.Languages

    /// The most a revision's note or a rollback's reason may say.
    public static let maxNoteLength = 1_000

    public init(store: any FixStore & EnrollmentStore, promotion: PromotionService, defaultLanguage: String = "en",
                clock: @escaping @Sendable () -> Date) {
        self.store = store
        self.promotion = promotion
        self.clock = clock
        languages = FixValidator.Languages(allowed: InvitationService.languages, fallback: defaultLanguage)
    }

    /// Creates a draft fix from what the person entered.
    /// - Parameter readErrors: what reading the input already found wrong, reported with the rest.
    public func create(_ draft: FixDraft, readErrors: [FieldError] = [], by principal: Principal) throws -> Fix {
        try AccessDenied.unless(principal, may: .editFixes)
        let fix = try FixValidator.makeFix(from: draft, author: principal.name, at: clock(), languages: languages,
                                           priorErrors: readErrors)
        return try store.createFix(fix, by: Requester(principal),
                                   emitting: [WebhookEventFactory.make(.fixCreated, fix: fix, evidence: nil, at: fix.createdAt)])
    }

    /// Fixes ordered by key after `key`, at most `limit`; a tester sees only those she is enrolled in.
    public func fixes(state: FixState?, after key: String?, limit: Int, for principal: Principal) throws -> [Fix] {
        try AccessDenied.unless(principal, mayAnyOf: [.readAll, .readEnrolledFixes])
        guard principal.role == .tester else { return try store.fixes(state: state, after: key, limit: limit) }
        // A tester has few fixes, so filtering here is cheap.
        let enrolled = try store.enrolledFixes(of: principal.testerID ?? "").filter { $0 > (key ?? "") }
        return try enrolled.compactMap { try store.fix($0) }.filter { state == nil || $0.state == state }
    }

    /// One fix; a tester reaches only the fixes she is enrolled in.
    public func fix(_ key: String, for principal: Principal) throws -> Fix {
        try AccessDenied.unless(principal, mayAnyOf: [.readAll, .readEnrolledFixes])
        try TesterScope(store: store).requireFixAccess(principal, fixKey: key)
        guard let fix = try store.fix(key) else { throw StoreError.notFound(kind: "fix", id: key) }
        return fix
    }

    /// Changes the fields `draft` sets; the rest stay.
    public func update(_ key: String, with draft: FixDraft, readErrors: [FieldError] = [], by principal: Principal) throws -> Fix {
        try AccessDenied.unless(principal, may: .editFixes)
        // Refused before the store is touched, so a missing fix and a bad field are told apart.
        if !readErrors.isEmpty { throw ValidationFailure(readErrors) }
        let time = clock()
        return try store.updateFix(key, action: .fixUpdate, by: Requester(principal), note: nil) { fix in
            try FixValidator.applyPatch(draft, to: fix, at: time, languages: languages)
        }.after
    }

    /// Refuses a principal whose role may not take `action`, before anything else about the command is read.
    public static func authorize(_ action: FixAction, for principal: Principal) throws {
        guard principal.allows(action.requiredPermission) else {
            throw AccessDenied("the role \(principal.role.rawValue) may not \(action.rawValue) a fix; it needs a role that can \(action.requiredPermission.phrase)")
        }
    }

    /// A person's lifecycle command: start, pause, resume, revise, roll back, abandon, promote, retry a promotion.
    /// - Parameter note: the new revision's note (`revise`) or the reason (`rollback`); the other actions take none.
    public func perform(_ action: FixAction, on key: String, note: String? = nil, readErrors: [FieldError] = [], by principal: Principal) throws -> FixChange {
        try FixService.authorize(action, for: principal)
        var errors = readErrors
        if let note, note.count > FixService.maxNoteLength {
            errors.append(FieldError(field: action == .rollback ? "reason" : "note", message: "must be at most \(FixService.maxNoteLength) characters, got \(note.count)"))
        }
        if !errors.isEmpty { throw ValidationFailure(errors) }
        return try promotion.perform(action, on: key, by: principal, note: action == .revise || action == .rollback ? note : nil)
    }
}
