import Synchronization
import VouchCrypto

/// Request ids for logs and the `X-Request-Id` header: the caller's own when it is sensible, otherwise
/// a random per-process prefix and a counter, which is unique without a random draw per request.
final class RequestIDGenerator: Sendable {
    private let prefix = SecureRandom.alphanumeric(count: 8)
    private let counter = Atomic<Int>(0)

    func next() -> String {
        prefix + "-" + String(counter.add(1, ordering: .relaxed).newValue, radix: 36)
    }

    /// The caller's id, when it is 1 to 128 letters, digits or `.` `_` `:` `-` (so it cannot forge a log field).
    func id(for presented: String?) -> String {
        if let presented, (1...128).contains(presented.utf8.count), presented.utf8.allSatisfy(RequestIDGenerator.allowed) {
            return presented
        }
        return next()
    }

    private static func allowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "-"): true
        default: false
        }
    }
}
