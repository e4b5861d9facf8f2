/// Where a fix ships and where feedback was given.
public enum Platform: String, Sendable, CaseIterable, Codable {
    case ios
    case android
    case web

    public static let allowedList = allCases.map(\.rawValue).joined(separator: ", ")
}
