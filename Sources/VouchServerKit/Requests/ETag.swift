import Foundation

/// Entity tags for bulk evaluation: a fingerprint of the exact answer, so any change to it changes the tag.
package enum ETag {
    /// FNV-1a, 64 bits, as hex: cheap, and collisions only cost a client one stale poll.
    package static func fingerprint(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// `If-None-Match` may list several tags, weak or strong, or `*`.
    package static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag
        }
    }
}
