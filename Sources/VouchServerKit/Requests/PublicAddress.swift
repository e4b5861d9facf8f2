/// The address clients reach this server at, for URLs it hands out (event streams, testers' personal links): the
/// configured public URL, or `http://` and the request's `Host` when that is a plain host name or address and port.
package enum PublicAddress {
    package static func base(configured: String, host: String?) -> String? {
        if !configured.isEmpty { return configured.hasSuffix("/") ? String(configured.dropLast()) : configured }
        guard let host, !host.isEmpty, host.utf8.count <= 255, host.utf8.allSatisfy(isHostByte) else { return nil }
        return "http://" + host
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
    }
}
