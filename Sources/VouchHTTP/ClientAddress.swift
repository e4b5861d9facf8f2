import Foundation

/// The peer of a connection as 16 bytes (IPv4 as an IPv4-mapped IPv6 address), so limits per address
/// can key on it without allocating; text only when something is logged.
public struct ClientAddress: Hashable, Sendable, CustomStringConvertible {
    public var high: UInt64
    public var low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// 127.0.0.1 and the like; used by tests and for requests that did not come over a socket.
    public init(ipv4 a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
        high = 0
        low = 0x0000_FFFF_0000_0000 | UInt64(a) << 24 | UInt64(b) << 16 | UInt64(c) << 8 | UInt64(d)
    }

    public static let unknown = ClientAddress(high: 0, low: 0)

    init(_ address: UnsafePointer<sockaddr>?) {
        guard let address else {
            self = .unknown
            return
        }
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
            self.init(high: 0, low: 0x0000_FFFF_0000_0000 | UInt64(ipv4))
        case AF_INET6:
            let bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
            }
            self.init(high: bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) }, low: bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) })
        default:
            self = .unknown
        }
    }

    public var isIPv4: Bool { high == 0 && low >> 32 == 0xFFFF }

    public var description: String {
        if self == .unknown { return "unknown" }
        if isIPv4 {
            let value = UInt32(truncatingIfNeeded: low)
            return "\(value >> 24).\(value >> 16 & 0xFF).\(value >> 8 & 0xFF).\(value & 0xFF)"
        }
        let groups = (0..<8).map { index -> String in
            let word = index < 4 ? high >> (48 - 16 * UInt64(index)) : low >> (48 - 16 * UInt64(index - 4))
            return String(word & 0xFFFF, radix: 16)
        }
        return groups.joined(separator: ":")
    }
}
