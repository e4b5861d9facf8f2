import Synchronization
import VouchConcurrency

/// Request ids for logs and the `X-Request-Id` header: the caller's own when it is sensible, otherwise
/// a random per-process prefix and a counter, which is unique without a random draw per request. Each stripe of
/// threads takes the counter's numbers in blocks, so the HTTP threads do not share one count's cache line; ids
/// from one thread go up by one, and ids of different threads interleave by block.
///
/// The HTTP server gives every request its id before any handler runs, so the answers the server makes
/// itself (a malformed request, a target too long) carry one as well.
public final class RequestIDGenerator: Sendable {
    /// A random prefix that tells this process's ids from another's (not a secret, so the system generator is
    /// enough) and the `-`, as bytes to copy into each new id.
    private let prefixBytes: [UInt8]
    /// The numbers handed out in blocks so far.
    private let counter = Atomic<Int>(0)
    /// Per stripe: the next number of its block and the end of the block.
    private let blocks = Striped { (next: 0, end: 0) }
    private static let blockSize = 64

    public init() {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var generator = SystemRandomNumberGenerator()
        prefixBytes = (0..<8).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] } + [UInt8(ascii: "-")]
    }

    /// The prefix, `-`, and the counter in base 36, written into the String's own storage: concatenating and
    /// formatting with `String(_:radix:)` made several Strings per request.
    public func next() -> String {
        var number = UInt64(blocks.withCurrent { block -> Int in
            if block.next == block.end {
                let start = counter.add(RequestIDGenerator.blockSize, ordering: .relaxed).oldValue + 1
                block = (start, start + RequestIDGenerator.blockSize)
            }
            block.next += 1
            return block.next - 1
        })
        var digits = 1
        var rest = number / 36
        while rest > 0 { digits += 1; rest /= 36 }
        return String(unsafeUninitializedCapacity: prefixBytes.count + digits) { buffer in
            for (index, byte) in prefixBytes.enumerated() { buffer[index] = byte }
            var position = prefixBytes.count + digits
            repeat {
                position -= 1
                buffer[position] = RequestIDGenerator.base36[Int(number % 36)]
                number /= 36
            } while number > 0
            return prefixBytes.count + digits
        }
    }

    private static let base36: [UInt8] = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)

    /// The caller's id, when it is 1 to 128 letters, digits or `.` `_` `:` `-` (so it cannot forge a log field).
    public func id(for presented: String?) -> String {
        if let presented, (1...128).contains(presented.utf8.count), presented.utf8.allSatisfy(RequestIDGenerator.allowed) {
            return presented
        }
        return next()
    }

    /// The same for the id's bytes as received: a String is made only of an id that is kept.
    public func id(for presented: UnsafeRawBufferPointer?) -> String {
        if let presented, (1...128).contains(presented.count), presented.allSatisfy(RequestIDGenerator.allowed) {
            return String(decoding: presented, as: UTF8.self)
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
