import Foundation

/// A person enrolled to verify fixes, known everywhere else by the pseudonym `id`.
///
/// Name, contact and assistive technologies are personal (health) data: they are stored apart from the
/// pseudonym, shown only to roles that manage testers and to the tester, and erased on withdrawal.
public struct Tester: Sendable, Equatable {
    public enum Status: String, Sendable {
        case active
        case withdrawn
    }

    /// `t_` and random letters and digits; carries no meaning.
    public var id: String
    /// Nil once withdrawn.
    public var name: String?
    public var contact: String?
    /// Where notifications by email go (docs/notifications.md); apart from the free-text `contact`.
    public var email: String?
    public var assistiveTech: [AssistiveTechProfile]
    public var targetingKeys: [String]
    public var consent: Consent
    public var status: Status
    public var createdAt: Date
    public var updatedAt: Date
    public var withdrawnAt: Date?

    public init(id: String, name: String?, contact: String?, assistiveTech: [AssistiveTechProfile], targetingKeys: [String], consent: Consent,
                status: Status = .active, createdAt: Date, updatedAt: Date, withdrawnAt: Date? = nil, email: String? = nil) {
        self.id = id
        self.email = email
        self.name = name
        self.contact = contact
        self.assistiveTech = assistiveTech
        self.targetingKeys = targetingKeys
        self.consent = consent
        self.status = status
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.withdrawnAt = withdrawnAt
    }

    public var isActive: Bool { status == .active }
}

/// The explicit consent GDPR Art. 9(2)(a) needs before health data is kept: which text, when, recorded by whom.
public struct Consent: Sendable, Equatable {
    /// Whose act the consent was: hers, through an invitation's pages, or recorded by staff on her behalf.
    public enum Giver: String, Sendable {
        case tester, staff
    }

    public var version: String
    public var givenAt: Date
    /// Staff: who recorded it; the tester: her own pseudonym.
    public var recordedBy: String
    public var givenBy: Giver
    /// The language of the consent text she read, when she gave it herself (`en`, `ja`).
    public var language: String?

    public init(version: String, givenAt: Date, recordedBy: String, givenBy: Giver = .staff, language: String? = nil) {
        self.version = version
        self.givenAt = givenAt
        self.recordedBy = recordedBy
        self.givenBy = givenBy
        self.language = language
    }
}
