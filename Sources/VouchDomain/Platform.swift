/// Where a fix ships and where feedback was given.
public enum Platform: String, Sendable, CaseIterable, Codable {
    case ios
    case android
    case web

    public static let allowedList = allCases.map(\.rawValue).joined(separator: ", ")

    /// The platform in a sentence: "on iOS", "on the web".
    public var displayName: String {
        switch self {
        case .ios: "iOS"
        case .android: "Android"
        case .web: "the web"
        }
    }
}
