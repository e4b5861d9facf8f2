import Foundation

/// RFC 3339 times in UTC with milliseconds, as the API writes them.
public enum Timestamp {
    private static let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)

    public static func string(_ date: Date) -> String { style.format(date) }

    public static func date(_ text: String) -> Date? { try? style.parse(text) }
}
