import Foundation

/// Reads an IPv6 address's text into its eight 16-bit groups (RFC 4291, 2.2), without the C library.
enum IPv6Address {
    static func groups(_ text: Substring) -> [UInt16]? {
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func read(_ half: String) -> [UInt16]? {
            guard !half.isEmpty else { return [] }
            var groups: [UInt16] = []
            let pieces = half.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if index == pieces.count - 1, piece.contains(".") {
                    // An embedded IPv4 address, as in ::ffff:127.0.0.1.
                    let octets = piece.split(separator: ".", omittingEmptySubsequences: false).compactMap { UInt8($0) }
                    guard octets.count == 4, piece.allSatisfy({ $0 == "." || ("0"..."9").contains($0) }) else { return nil }
                    groups += [UInt16(octets[0]) << 8 | UInt16(octets[1]), UInt16(octets[2]) << 8 | UInt16(octets[3])]
                } else {
                    guard (1...4).contains(piece.count), piece.allSatisfy(\.isHexDigit), let group = UInt16(piece, radix: 16) else { return nil }
                    groups.append(group)
                }
            }
            return groups
        }
        guard let head = read(halves[0]) else { return nil }
        if halves.count == 1 { return head.count == 8 ? head : nil }
        guard let tail = read(halves[1]), head.count + tail.count <= 7 else { return nil }
        return head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
    }

    /// `::1`, or an IPv4-mapped address in 127.0.0.0/8.
    static func isLoopback(_ groups: [UInt16]) -> Bool {
        let zeros = groups.prefix(5).allSatisfy { $0 == 0 }
        return (zeros && groups[5] == 0 && groups[6] == 0 && groups[7] == 1) || (zeros && groups[5] == 0xFFFF && groups[6] >> 8 == 127)
    }
}
