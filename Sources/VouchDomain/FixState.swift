/// The lifecycle states of docs/lifecycle.md, "States and flag values".
public enum FixState: String, Sendable, CaseIterable, Codable {
    case draft
    case testing
    case promoting
    case promotionFailed = "promotion_failed"
    case releasing
    case released
    case paused
    case rolledBack = "rolled_back"
    case abandoned

    public static let allowedList = allCases.map(\.rawValue).joined(separator: ", ")

    /// States in which the flag is on for targeted keys only.
    public var isTargetedOnly: Bool {
        self == .testing || self == .promoting || self == .promotionFailed
    }
}
