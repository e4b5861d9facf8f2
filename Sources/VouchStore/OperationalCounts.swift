/// What an operator graphs, counted in the database at scrape time so the figures survive restarts.
public struct OperationalCounts: Sendable, Equatable {
    public var fixesByState: [String: Int]
    public var feedbackByVerdict: [String: Int]
    public var deliveriesByStatus: [String: Int]

    public init(fixesByState: [String: Int] = [:], feedbackByVerdict: [String: Int] = [:], deliveriesByStatus: [String: Int] = [:]) {
        self.fixesByState = fixesByState
        self.feedbackByVerdict = feedbackByVerdict
        self.deliveriesByStatus = deliveriesByStatus
    }
}
