import Foundation

/// Refuses webhook URLs that point into loopback or private networks (SSRF), unless the operator allows them.
public struct AddressPolicy: Sendable {
    public var allowPrivateNetworks: Bool

    public init(allowPrivateNetworks: Bool) {
        self.allowPrivateNetworks = allowPrivateNetworks
    }

    /// A URL checked and resolved: where to connect, so the address checked is the one used.
    public struct Target: Sendable, Equatable {
        public var host: String
        public var port: Int
        public var address: String

        /// curl's CURLOPT_RESOLVE entry: `host:port:address`.
        public var pin: String {
            let bracketed = address.contains(":") ? "[\(address)]" : address
            return "\(host):\(port):\(bracketed)"
        }
    }

    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// Checks the URL's form: http or https, a host, no credentials.
    public static func checkForm(_ text: String) -> String? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme) else {
            return "must be an http:// or https:// URL"
        }
        guard let host = components.host, !host.isEmpty else { return "must name a host" }
        if components.user != nil || components.password != nil { return "must not carry a user name or password; authenticate with the signature" }
        if text.count > 2_000 { return "must be at most 2000 characters" }
        return nil
    }

    /// Resolves the URL's host and refuses private and loopback addresses unless allowed.
    public func resolve(_ text: String) throws(Refusal) -> Target {
        if let problem = AddressPolicy.checkForm(text) { throw Refusal(description: "the URL \(problem)") }
        let components = URLComponents(string: text)!
        let host = components.host!
        let port = components.port ?? (components.scheme?.lowercased() == "https" ? 443 : 80)
        let name = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(name, String(port), &hints, &result)
        guard status == 0, let first = result else {
            throw Refusal(description: "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(result) }
        var addresses: [String] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if let text = AddressPolicy.numericHost(entry.pointee.ai_addr, length: entry.pointee.ai_addrlen) { addresses.append(text) }
            cursor = entry.pointee.ai_next
        }
        guard let chosen = addresses.first else { throw Refusal(description: "cannot resolve \(host)") }
        if !allowPrivateNetworks, let privateAddress = addresses.first(where: AddressPolicy.isPrivate) {
            throw Refusal(description: "\(host) resolves to \(privateAddress), a loopback or private address; set webhooks.allow_private_networks = true to allow it")
        }
        return Target(host: name, port: port, address: chosen)
    }

    static func numericHost(_ address: UnsafeMutablePointer<sockaddr>?, length: socklen_t) -> String? {
        guard let address else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(address, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Loopback, private (RFC 1918), carrier-grade NAT, link-local, unique-local, unspecified, multicast and reserved
    /// addresses, and every IPv6 form that carries one of them inside: IPv4-mapped, IPv4-compatible, NAT64 (64:ff9b::/96),
    /// 6to4 (2002::/16) and Teredo (2001::/32). Text that is not an address counts as private: refusing is the safe side.
    public static func isPrivate(_ address: String) -> Bool {
        var ipv4 = in_addr()
        if inet_pton(AF_INET, address, &ipv4) == 1 {
            return isPrivateIPv4(UInt32(bigEndian: ipv4.s_addr))
        }
        var ipv6 = in6_addr()
        guard inet_pton(AF_INET6, address, &ipv6) == 1 else { return true }
        let bytes = withUnsafeBytes(of: ipv6) { Array($0) }
        func embedded(at offset: Int) -> UInt32 {
            bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        let firstTen = bytes[0..<10].allSatisfy { $0 == 0 }
        // ::ffff:a.b.c.d and the deprecated ::a.b.c.d (which also covers :: and ::1).
        if firstTen, (bytes[10] == 0xFF && bytes[11] == 0xFF) || (bytes[10] == 0 && bytes[11] == 0) {
            return isPrivateIPv4(embedded(at: 12))
        }
        // NAT64: 64:ff9b::/96 reaches the IPv4 address in its last 32 bits; 64:ff9b:1::/48 is for local use only.
        if bytes[0..<4].elementsEqual([0x00, 0x64, 0xFF, 0x9B]) {
            return bytes[4..<12].allSatisfy { $0 == 0 } ? isPrivateIPv4(embedded(at: 12)) : true
        }
        // 6to4 carries the IPv4 address right after 2002:.
        if bytes[0] == 0x20, bytes[1] == 0x02 { return isPrivateIPv4(embedded(at: 2)) }
        // Teredo: the server's IPv4 address, and the client's with its bits inverted.
        if bytes[0..<4].elementsEqual([0x20, 0x01, 0x00, 0x00]) {
            return isPrivateIPv4(embedded(at: 4)) || isPrivateIPv4(~embedded(at: 12))
        }
        switch bytes[0] {
        case 0xFC, 0xFD: return true  // fc00::/7 unique local
        case 0xFE: return bytes[1] & 0xC0 == 0x80 || bytes[1] & 0xC0 == 0xC0  // fe80::/10 link-local, fec0::/10 site-local
        case 0xFF: return true  // multicast
        default: return false
        }
    }

    static func isPrivateIPv4(_ address: UInt32) -> Bool {
        let first = address >> 24
        let second = (address >> 16) & 0xFF
        switch (first, second) {
        case (0, _), (10, _), (127, _): return true
        case (100, 64...127): return true  // carrier-grade NAT
        case (169, 254): return true  // link-local, cloud metadata
        case (172, 16...31): return true
        case (192, 168): return true
        case (192, 0): return (address >> 8) & 0xFF == 0  // 192.0.0.0/24, protocol assignments
        case (198, 18...19): return true  // benchmarking
        default: return first >= 224  // multicast, reserved, broadcast
        }
    }
}
