/// Counts across the aggregates, for `/metrics`.
public protocol OperationalCountsStore: Sendable {
    /// Fixes by state, feedback by verdict and webhook deliveries by status, for `/metrics`.
    func operationalCounts() throws -> OperationalCounts
}
