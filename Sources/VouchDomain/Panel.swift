import Foundation

/// A named group of testers ("VoiceOver on iOS"), enrolled in a fix at once (docs/invitations.md, "Panels").
///
/// Its name says nothing about one person, but being a member of it may say which assistive technology she uses: a
/// panel is shown only to those who manage testers, and withdrawal takes her out of every panel.
public struct Panel: Sendable, Equatable {
    /// One tester in the panel, known by her pseudonym.
    public struct Member: Sendable, Equatable {
        public var testerID: String
        public var addedBy: String
        public var addedAt: Date

        public init(testerID: String, addedBy: String, addedAt: Date) {
            self.testerID = testerID
            self.addedBy = addedBy
            self.addedAt = addedAt
        }
    }

    /// `p_` and random letters and digits: stable whatever the name, and safe in an address.
    public var id: String
    /// Unique whatever its case.
    public var name: String
    public var description: String?
    public var createdBy: String
    public var createdAt: Date
    /// By pseudonym.
    public var members: [Member]

    public init(id: String, name: String, description: String?, createdBy: String, createdAt: Date, members: [Member] = []) {
        self.id = id
        self.name = name
        self.description = description
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.members = members
    }

    /// The most characters a name may have, and a description.
    public static let maxNameLength = 100
    public static let maxDescriptionLength = 1_000

    /// What two names are compared by when a new one must differ from every other.
    public static func folded(_ name: String) -> String { name.lowercased() }
}
