/// What is wrong with one answer on a join page: the field and the kind of problem, which the page words in its
/// language (docs/invitations.md, "Joining").
public struct JoinIssue: Sendable, Equatable {
    public enum Problem: Sendable, Equatable {
        case missing
        case tooLong(limit: Int)
        case lineBreaks
        case notAnEmail
        case unknownChoice
        case browserOffTheWeb
    }

    public var field: String
    public var problem: Problem

    public init(_ field: String, _ problem: Problem) {
        self.field = field
        self.problem = problem
    }
}
