import Foundation
import VouchDomain

/// Durations as people write them in requests, configuration and on the command line: `90s`, `15m`, `24h`, `7d`.
///
/// Every value is read with overflow checks and then bounded: a number so large that its seconds do not fit an
/// `Int` once multiplied (`153722867280912931m`) is an error, never a trap (docs/contracts.md, "Limits").
public enum DurationText {
    /// The longest duration any setting accepts: a year. Longer values are surely a mistake, and bounding them keeps
    /// every time computed from them (now + duration, in milliseconds) far inside 64 bits.
    public static let maximumSeconds = 365 * 86_400

    /// Seconds for each unit letter.
    private static let units: [Character: Int] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]

    /// The seconds `text` stands for, or nil when it is not a duration or is longer than `maximumSeconds`.
    public static func seconds(_ text: String) -> Int? {
        try? seconds(text, field: "duration", allowed: 0...maximumSeconds)
    }

    /// The seconds `text` stands for, checked against `allowed`; the error names `field` and what is allowed.
    public static func seconds(_ text: String, field: String, allowed: ClosedRange<Int>) throws(FieldError) -> Int {
        // Not trimmed: the document's pattern (`^(0|[0-9]+[smhd])$`) refuses a space, and so does the server.
        let malformed = FieldError(field: field, message: "must be a duration such as 90s, 15m, 24h or 7d (\(describe(allowed)))")
        if text == "0" {
            guard allowed.contains(0) else { throw malformed }
            return 0
        }
        guard let unit = text.last, let multiplier = units[unit] else { throw malformed }
        let digits = text.dropLast()
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw malformed }
        // More than 18 digits cannot be a year in any unit; saying so beats "not a duration".
        guard digits.count <= 18, let number = Int(digits) else { throw tooLong(field, allowed) }
        let (product, overflow) = number.multipliedReportingOverflow(by: multiplier)
        if overflow || product > allowed.upperBound { throw tooLong(field, allowed) }
        guard product >= allowed.lowerBound else {
            throw FieldError(field: field, message: "must be at least \(string(allowed.lowerBound)) (\(describe(allowed)))")
        }
        return product
    }

    /// The shortest exact form: `86400` → `1d`, `5400` → `90m`.
    public static func string(_ seconds: Int) -> String {
        if seconds > 0 && seconds % 86_400 == 0 { return "\(seconds / 86_400)d" }
        if seconds > 0 && seconds % 3_600 == 0 { return "\(seconds / 3_600)h" }
        if seconds > 0 && seconds % 60 == 0 { return "\(seconds / 60)m" }
        return "\(seconds)s"
    }

    /// "from 1s to 365d".
    public static func describe(_ allowed: ClosedRange<Int>) -> String {
        "from \(string(allowed.lowerBound)) to \(string(allowed.upperBound))"
    }

    private static func tooLong(_ field: String, _ allowed: ClosedRange<Int>) -> FieldError {
        let limit = allowed.upperBound == maximumSeconds ? "a year (\(string(maximumSeconds)))" : string(allowed.upperBound)
        return FieldError(field: field, message: "is too long: at most \(limit) (\(describe(allowed)))")
    }
}
