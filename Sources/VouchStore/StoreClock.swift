import Foundation

/// Time as the store writes it: integer milliseconds since 1970, UTC.
public enum StoreClock {
    public static func nowMilliseconds() -> Int64 { milliseconds(Date()) }

    public static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    public static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
}
