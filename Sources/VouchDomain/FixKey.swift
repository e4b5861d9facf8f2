/// A fix's flag key: what apps ask OFREP for, so it must be stable and URL-safe.
public struct FixKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: String

    /// The rule of docs/lifecycle.md ("Fixes"): `[a-z0-9][a-z0-9._-]{0,99}`.
    public static let rule = "1 to 100 characters: lowercase letters, digits, '.', '_' or '-', starting with a letter or digit"

    public init(validating text: String, field: String = "key") throws(FieldError) {
        guard FixKey.isValid(text) else {
            throw FieldError(field: field, message: "must be \(FixKey.rule)")
        }
        rawValue = text
    }

    public static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (1...100).contains(bytes.count) else { return false }
        func isLowerAlphanumeric(_ byte: UInt8) -> Bool {
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
        }
        guard isLowerAlphanumeric(bytes[0]) else { return false }
        return bytes.dropFirst().allSatisfy { isLowerAlphanumeric($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D }
    }

    public var description: String { rawValue }

    public static func < (lhs: FixKey, rhs: FixKey) -> Bool { lhs.rawValue < rhs.rawValue }
}
