import Foundation

/// A tester's fields as a client sent them; nil means "not given".
public struct TesterDraft: Sendable, Equatable {
    public var name: String?
    public var contact: String??
    /// The address for notifications by email; `.some(nil)` clears it.
    public var email: String??
    public var assistiveTech: [AssistiveTechProfile]?
    public var targetingKeys: [String]?
    public var consentVersion: String?

    public init(name: String? = nil, contact: String?? = nil, assistiveTech: [AssistiveTechProfile]? = nil, targetingKeys: [String]? = nil,
                consentVersion: String? = nil, email: String?? = nil) {
        self.name = name
        self.email = email
        self.contact = contact
        self.assistiveTech = assistiveTech
        self.targetingKeys = targetingKeys
        self.consentVersion = consentVersion
    }
}

/// Checks tester fields; no consent, no tester.
public enum TesterValidator {
    public static let maxNameLength = 200
    public static let maxContactLength = 320
    public static let maxKeys = 20
    public static let maxKeyLength = 256

    public static func makeTester(from draft: TesterDraft, id: String, recordedBy: String, at time: Date,
                                  priorErrors: [FieldError] = []) throws(ValidationFailure) -> Tester {
        var errors = priorErrors
        if draft.name == nil { errors.append(FieldError(field: "name", message: "is required: the tester's display name")) }
        if draft.consentVersion == nil {
            errors.append(FieldError(field: "consent", message: "is required: the version of the consent text the tester agreed to; no consent, no tester"))
        }
        if draft.assistiveTech == nil {
            errors.append(FieldError(field: "assistive_tech", message: "is required: at least one \(AssistiveTechProfile.format)"))
        }
        if draft.targetingKeys == nil {
            errors.append(FieldError(field: "targeting_keys", message: "is required: the app user ids of the tester's accounts"))
        }
        errors += fieldErrors(in: draft)
        guard errors.isEmpty else { throw ValidationFailure(TesterValidator.withoutEchoes(errors)) }
        return Tester(id: id, name: clean(draft.name!), contact: draft.contact.flatMap { $0 }.flatMap(nonEmpty), assistiveTech: draft.assistiveTech!,
                      targetingKeys: unique(draft.targetingKeys!), consent: Consent(version: clean(draft.consentVersion!), givenAt: time, recordedBy: recordedBy),
                      createdAt: time, updatedAt: time, email: draft.email.flatMap { $0 }.flatMap(nonEmpty))
    }

    /// Applies a partial update to an active tester; a new consent version renews the consent record.
    public static func applyPatch(_ draft: TesterDraft, to tester: Tester, recordedBy: String, at time: Date,
                                  priorErrors: [FieldError] = []) throws(ValidationFailure) -> Tester {
        var errors = priorErrors + fieldErrors(in: draft)
        if !tester.isActive { errors.insert(FieldError(field: "id", message: "tester \(tester.id) has withdrawn; their data was erased and cannot be changed"), at: 0) }
        guard errors.isEmpty else { throw ValidationFailure(withoutEchoes(errors)) }
        var next = tester
        if let name = draft.name { next.name = clean(name) }
        if let contact = draft.contact { next.contact = contact.flatMap(nonEmpty) }
        if let email = draft.email { next.email = email.flatMap(nonEmpty) }
        if let assistiveTech = draft.assistiveTech { next.assistiveTech = assistiveTech }
        if let keys = draft.targetingKeys { next.targetingKeys = unique(keys) }
        if let version = draft.consentVersion, clean(version) != tester.consent.version {
            next.consent = Consent(version: clean(version), givenAt: time, recordedBy: recordedBy)
        }
        if next != tester { next.updatedAt = time }
        return next
    }

    /// Drops "required"/"empty" complaints about a list whose elements were already reported one by one.
    static func withoutEchoes(_ errors: [FieldError]) -> [FieldError] {
        let elementFields = Set(errors.compactMap { error in error.field.firstIndex(of: "[").map { String(error.field[..<$0]) } })
        return errors.filter { !elementFields.contains($0.field) }
    }

    private static func fieldErrors(in draft: TesterDraft) -> [FieldError] {
        var errors: [FieldError] = []
        if let name = draft.name { errors += text(name, field: "name", limit: maxNameLength, required: true) }
        if let contact = draft.contact, let contact { errors += text(contact, field: "contact", limit: maxContactLength, required: false) }
        if let version = draft.consentVersion { errors += text(version, field: "consent", limit: 64, required: true) }
        if let profiles = draft.assistiveTech, profiles.isEmpty {
            errors.append(FieldError(field: "assistive_tech", message: "must list at least one \(AssistiveTechProfile.format)"))
        }
        if let keys = draft.targetingKeys {
            if keys.isEmpty { errors.append(FieldError(field: "targeting_keys", message: "must list at least one app user id")) }
            errors += targetingKeyErrors(keys, field: "targeting_keys")
        }
        return errors
    }

    /// What is wrong with a tester's targeting keys, wherever they are given (a tester, an invitation that binds
    /// them in advance): too many, or one empty, too long or holding control characters.
    public static func targetingKeyErrors(_ keys: [String], field: String) -> [FieldError] {
        var errors: [FieldError] = []
        if keys.count > maxKeys { errors.append(FieldError(field: field, message: "at most \(maxKeys) keys, got \(keys.count)")) }
        for (index, key) in keys.enumerated() {
            if key.isEmpty || SchemaText.length(key) > maxKeyLength || key.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                errors.append(FieldError(field: "\(field)[\(index)]", message: "must be 1 to \(maxKeyLength) characters without control characters"))
            }
        }
        return errors
    }

    /// Checked as sent, then stored trimmed (`clean`).
    private static func text(_ value: String, field: String, limit: Int, required: Bool) -> [FieldError] {
        SchemaText.problem(value, limit: limit, required: required, lineBreaks: false).map { [FieldError(field: field, message: $0)] } ?? []
    }

    private static func clean(_ value: String) -> String { value.trimmingCharacters(in: .whitespacesAndNewlines) }

    private static func nonEmpty(_ value: String) -> String? {
        let text = clean(value)
        return text.isEmpty ? nil : text
    }

    private static func unique(_ keys: [String]) -> [String] {
        var seen: Set<String> = []
        return keys.filter { seen.insert($0).inserted }
    }
}
