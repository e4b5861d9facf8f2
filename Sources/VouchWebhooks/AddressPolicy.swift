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

    /// Loopback, private (RFC 1918), carrier-grade NAT, link-local, unique-local, unspecified and IPv4-mapped forms of them.
    public static func isPrivate(_ address: String) -> Bool {
        var text = address.lowercased()
        if text.hasPrefix("::ffff:") { text = String(text.dropFirst(7)) }
        let parts = text.split(separator: ".").compactMap { Int($0) }
        if parts.count == 4 {
            switch (parts[0], parts[1]) {
            case (0, _), (10, _), (127, _): return true
            case (100, 64...127): return true
            case (169, 254): return true
            case (172, 16...31): return true
            case (192, 168): return true
            default: return false
            }
        }
        return text == "::1" || text == "::" || text.hasPrefix("fc") || text.hasPrefix("fd") || text.hasPrefix("fe8") || text.hasPrefix("fe9")
            || text.hasPrefix("fea") || text.hasPrefix("feb")
    }
}
