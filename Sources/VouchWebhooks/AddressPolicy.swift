import Foundation

/// Refuses webhook URLs that point into loopback or private networks (SSRF), unless the operator allows them.
public struct AddressPolicy: Sendable {
    public var allowPrivateNetworks: Bool
    /// A name's addresses as numeric text, or the refusal that says why there are none (tests substitute names of their own).
    typealias Resolver = @Sendable (_ name: String) throws(Refusal) -> [String]
    private let resolver: Resolver

    /// Resolves names on `resolver`'s threads and waits at most `timeout` for each, so that neither a route that
    /// registers a webhook nor a delivery waits on a DNS server that does not answer. There is no policy that calls
    /// getaddrinfo on the caller's thread: it takes no deadline.
    public init(allowPrivateNetworks: Bool, resolver: HostResolver, timeout: Duration) {
        self.init(allowPrivateNetworks: allowPrivateNetworks) { name throws(Refusal) in
            try AddressPolicy.addresses(of: name, from: resolver.resolve(name, timeout: timeout), timeout: timeout)
        }
    }

    init(allowPrivateNetworks: Bool, resolver: @escaping Resolver) {
        self.allowPrivateNetworks = allowPrivateNetworks
        self.resolver = resolver
    }

    /// A URL checked and resolved: where to connect, so the address checked is the one used.
    public struct Target: Sendable, Equatable {
        public var host: WebhookURL.Host
        public var port: Int
        public var address: String

        /// curl's CURLOPT_RESOLVE entry `name:port:address` (an IPv6 address in brackets), for a host that is a name.
        /// An address literal has none: curl connects to it without a lookup, and its own colons would break the entry.
        public var pin: String? {
            guard case .name(let name) = host else { return nil }
            return "\(name):\(port):\(address.contains(":") ? "[\(address)]" : address)"
        }
    }

    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
        /// Set when DNS gave no usable answer for the host: nothing is known against the URL yet, and the same URL
        /// may pass later. Nil when the URL's form or an address it resolves to is refused, which lasts until the
        /// URL or the operator's settings change.
        public var unresolved: Unresolved?

        /// Nothing is wrong with the URL: too many lookups were waiting, and the same request may pass in a moment.
        public var isBusy: Bool { unresolved?.result == .busy }
    }

    /// A host name and what its lookup gave instead of addresses.
    public struct Unresolved: Sendable, Equatable, CustomStringConvertible {
        public var name: String
        /// `.notFound`, `.failed`, `.timedOut` or `.busy`; never `.addresses`.
        public var result: ResolveResult
        /// What happened, in an operator's words, without advice: "DNS for host 'x' did not answer within 5s".
        public var description: String
    }

    /// Checks the URL's form (see `WebhookURL`); the problem, worded to follow the field name, or nil.
    public static func checkForm(_ text: String) -> String? {
        do {
            _ = try WebhookURL(text)
            return nil
        } catch {
            return error.message
        }
    }

    /// Resolves the URL's host and refuses private and loopback addresses unless allowed.
    public func resolve(_ text: String) throws(Refusal) -> Target {
        let url: WebhookURL
        do { url = try WebhookURL(text) } catch { throw Refusal(description: "the URL \(error.message)") }
        let addresses: [String]
        let isName: Bool
        switch url.host {
        case .ipv4(let address), .ipv6(let address): (addresses, isName) = ([address], false)
        case .name(let name): (addresses, isName) = (try resolver(name), true)
        }
        guard let chosen = addresses.first else { throw Refusal(description: "cannot resolve \(url.host.text)") }
        if !allowPrivateNetworks, let privateAddress = addresses.first(where: AddressPolicy.isPrivate) {
            let subject = isName ? "\(url.host.text) resolves to \(privateAddress)," : "\(url.host.text) is"
            throw Refusal(description: "\(subject) a loopback, private or otherwise non-public address; set webhooks.allow_private_networks = true to allow it")
        }
        return Target(host: url.host, port: url.port, address: chosen)
    }

    /// Whether the address a connection reached may be talked to: the last check, after libcurl connected.
    public func allowsPeer(_ address: String) -> Bool {
        allowPrivateNetworks || !AddressPolicy.isPrivate(address)
    }

    /// The addresses a lookup found, or the refusal that says, for the `url` field, why there are none, and what
    /// DNS did, for a delivery's record.
    static func addresses(of name: String, from result: ResolveResult, timeout: Duration) throws(Refusal) -> [String] {
        let (forField, happened): (String, String)
        switch result {
        case .addresses(let addresses):
            return addresses
        case .notFound:
            forField = "the host name '\(name)' does not resolve: there is no such name, or it has no address"
            happened = "DNS has no address for host '\(name)': the name does not exist, or has no A or AAAA record"
        case .failed(let reason):
            forField = "the host name '\(name)' could not be resolved (\(reason)); try again later"
            happened = "DNS for host '\(name)' failed: \(reason)"
        case .timedOut:
            forField = "the host name '\(name)' did not resolve within \(timeout.secondsText): DNS gave no answer in time; try again "
                + "(every delivery checks the address again anyway)"
            happened = "DNS for host '\(name)' did not answer within \(timeout.secondsText)"
        case .busy:
            forField = "too many host names are being resolved right now, so '\(name)' was not checked; try again in a moment"
            happened = "DNS for host '\(name)' was not asked: too many host names were waiting to be looked up"
        }
        throw Refusal(description: forField, unresolved: Unresolved(name: name, result: result, description: happened))
    }

    /// Whether an address is anything but a public one: loopback, private (RFC 1918), carrier-grade NAT, link-local,
    /// documentation, benchmarking, unique-local, site-local, unspecified, multicast or reserved; or an IPv6 form that
    /// carries such an IPv4 address inside (IPv4-mapped, IPv4-translated, IPv4-compatible, NAT64, 6to4, Teredo).
    /// Text that is not an address counts as private: refusing is the safe side.
    public static func isPrivate(_ address: String) -> Bool {
        var ipv4 = in_addr()
        if inet_pton(AF_INET, address, &ipv4) == 1 {
            return isPrivateIPv4(UInt32(bigEndian: ipv4.s_addr))
        }
        var ipv6 = in6_addr()
        guard inet_pton(AF_INET6, address, &ipv6) == 1 else { return true }
        return isPrivateIPv6(withUnsafeBytes(of: ipv6) { Array($0) })
    }

    /// The IPv6 rules over the address's 16 bytes (IANA's special-purpose registry).
    static func isPrivateIPv6(_ bytes: [UInt8]) -> Bool {
        func embedded(at offset: Int) -> UInt32 {
            bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        func isZero(_ range: Range<Int>) -> Bool { bytes[range].allSatisfy { $0 == 0 } }
        // ::a.b.c.d (the deprecated IPv4-compatible form, which also covers :: and ::1) and ::ffff:a.b.c.d (IPv4-mapped).
        if isZero(0..<10), (bytes[10] == 0 && bytes[11] == 0) || (bytes[10] == 0xFF && bytes[11] == 0xFF) {
            return isPrivateIPv4(embedded(at: 12))
        }
        // ::ffff:0:a.b.c.d, IPv4-translated (RFC 2765, SIIT).
        if isZero(0..<8), bytes[8] == 0xFF, bytes[9] == 0xFF, isZero(10..<12) { return isPrivateIPv4(embedded(at: 12)) }
        // NAT64: 64:ff9b::/96 reaches the IPv4 address in its last 32 bits; the rest of 64:ff9b::/32, such as
        // 64:ff9b:1::/48 (RFC 8215), is for local use only.
        if bytes.starts(with: [0x00, 0x64, 0xFF, 0x9B]) { return isZero(4..<12) ? isPrivateIPv4(embedded(at: 12)) : true }
        // 6to4 carries the IPv4 address right after 2002:.
        if bytes.starts(with: [0x20, 0x02]) { return isPrivateIPv4(embedded(at: 2)) }
        // Teredo (2001::/32): the server's IPv4 address, and the client's with its bits inverted.
        if bytes.starts(with: [0x20, 0x01, 0x00, 0x00]) { return isPrivateIPv4(embedded(at: 4)) || isPrivateIPv4(~embedded(at: 12)) }
        // Only global unicast, 2000::/3, reaches the Internet: this leaves out unique-local fc00::/7, link-local fe80::/10,
        // site-local fec0::/10, multicast ff00::/8, discard-only 100::/64 and all that is unassigned.
        guard bytes[0] & 0xE0 == 0x20 else { return true }
        if bytes[0] == 0x20, bytes[1] == 0x01, bytes[2] & 0xFE == 0 { return true }  // 2001::/23, IETF protocol assignments
        if bytes.starts(with: [0x20, 0x01, 0x0D, 0xB8]) { return true }  // 2001:db8::/32, documentation
        if bytes[0] == 0x3F, bytes[1] == 0xFF, bytes[2] & 0xF0 == 0 { return true }  // 3fff::/20, documentation (RFC 9637)
        return false
    }

    static func isPrivateIPv4(_ address: UInt32) -> Bool {
        let first = address >> 24
        let second = (address >> 16) & 0xFF
        let third = (address >> 8) & 0xFF
        switch (first, second) {
        case (0, _), (10, _), (127, _): return true  // "this network", private, loopback
        case (100, 64...127): return true  // carrier-grade NAT
        case (169, 254): return true  // link-local, cloud metadata
        case (172, 16...31): return true
        case (192, 168): return true
        case (192, 0): return third == 0 || third == 2  // 192.0.0.0/24 protocol assignments, 192.0.2.0/24 documentation
        case (192, 88): return third == 99  // 6to4 relay anycast (deprecated)
        case (198, 18...19): return true  // benchmarking
        case (198, 51): return third == 100  // documentation
        case (203, 0): return third == 113  // documentation
        default: return first >= 224  // multicast, reserved, broadcast
        }
    }
}
