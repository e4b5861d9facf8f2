/// Who runs the testing programme and answers for testers' data, as a tester reads it before she consents
/// (`operator.name`, `operator.contact`; docs/invitations.md).
public struct ProgrammeOperator: Sendable, Equatable {
    public var name: String
    public var contact: String

    public init(name: String, contact: String) {
        self.name = name
        self.contact = contact
    }

    /// Invitations wait for both: nobody can consent without knowing to whom.
    public var isConfigured: Bool { !name.isEmpty && !contact.isEmpty }
}
