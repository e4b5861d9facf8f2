/// A promotion asked for by hand while the fix's criteria are not met: the report says what is missing.
public struct CriteriaNotMet: Error, Sendable, Equatable, CustomStringConvertible {
    public var report: CriteriaReport

    public init(_ report: CriteriaReport) {
        self.report = report
    }

    public var description: String {
        "fix \(report.fixKey) does not meet its criteria yet: " + report.missing.joined(separator: "; ")
    }

    /// Each criterion not met, by its configuration name, with what would meet it.
    public var unmet: [(name: String, missing: String)] {
        report.criteria.filter { !$0.met }.map { ($0.name, $0.missing ?? $0.summary) }
    }
}
