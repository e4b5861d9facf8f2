import Foundation

/// Time as the store writes it: integer milliseconds since 1970, UTC.
public enum StoreClock {
    public static func nowMilliseconds() -> Int64 { milliseconds(Date()) }

    /// Clamped to ±2^53 ms (about 285,000 years) rather than trapping: inputs are bounded long before this, but a time
    /// computed from a bad value must never stop the daemon (docs/contracts.md, "Limits").
    public static func milliseconds(_ date: Date) -> Int64 {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.isFinite else { return milliseconds > 0 ? limit : -limit }
        return Int64(min(max(milliseconds, Double(-limit)), Double(limit)))
    }

    private static let limit: Int64 = 1 << 53

    public static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
}
