/// `notifications.smtp_url`, read strictly: where mail goes and whether it is encrypted on the way.
///
/// Accepted: `smtps://host[:port]` (TLS from the first byte, port 465 by default) or `smtp://host[:port]` (port 25
/// by default) on which STARTTLS is required, unless the host is loopback (127.0.0.0/8, ::1 or `localhost`), where a
/// local relay is reached in plain text. `?starttls=required` asks for STARTTLS on loopback too; `?starttls=off` is
/// refused anywhere but loopback. The host is a DNS name, an IPv4 address as four decimal numbers or an IPv6 address
/// in brackets. Refused: a user name or password in the URL (credentials live in a file of their own), a path, a
/// fragment, other query parameters, and anything but printable ASCII.
public struct SMTPURL: Sendable, Equatable, CustomStringConvertible {
    /// How the connection is protected.
    public enum Security: Sendable, Equatable {
        /// `smtps://`: TLS from the first byte.
        case implicitTLS
        /// `smtp://` with STARTTLS required: a server that does not offer it gets nothing.
        case startTLS
        /// `smtp://` in plain text, to a relay on loopback only.
        case none
    }

    /// What is wrong with the URL, worded to follow the setting's name ("notifications.smtp_url must …").
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// As written in a URL: an IPv6 address in brackets.
    public let host: String
    public let port: Int
    public let security: Security
    /// 127.0.0.0/8, ::1 (or ::ffff:127.0.0.0/104) or `localhost`.
    public let isLoopback: Bool

    /// What libcurl connects to: the scheme, the host and the port, nothing else.
    public var connectionURL: String { "\(security == .implicitTLS ? "smtps" : "smtp")://\(host):\(port)" }

    public var description: String { connectionURL }

    private static let allowed = "must be smtp://host:port (STARTTLS, or plain text to a relay on loopback) or smtps://host:port (TLS from the start)"

    public init(_ text: String) throws(Problem) {
        guard text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }), text.utf8.count <= 2_000 else {
            throw Problem(message: "must be printable ASCII without spaces or line breaks, at most 2000 characters; it \(SMTPURL.allowed)")
        }
        let lowered = text.lowercased()
        let scheme = ["smtps", "smtp"].first { lowered.hasPrefix($0 + "://") }
        guard let scheme else { throw Problem(message: SMTPURL.allowed + "; other schemes are not mail relays") }
        let rest = text.dropFirst(scheme.count + 3)
        let authority = rest.prefix { !"/?#".contains($0) }
        var tail = rest.dropFirst(authority.count)
        if authority.contains("@") {
            throw Problem(message: "must not carry a user name or password; give the relay's credentials in their own file")
        }
        if tail.hasPrefix("/") { tail = tail.dropFirst() }
        guard !tail.hasPrefix("/"), !tail.contains("#"), tail.isEmpty || tail.hasPrefix("?") else {
            throw Problem(message: "must not have a path or fragment: only the host, the port and ?starttls=required or ?starttls=off")
        }
        let (host, portText, isLoopback) = try SMTPURL.readAuthority(authority)
        self.host = host
        self.isLoopback = isLoopback
        if let portText {
            guard (1...5).contains(portText.count), portText.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(portText), (1...65_535).contains(number) else {
                throw Problem(message: "must have a port from 1 to 65535 after ':' (587 for submission with STARTTLS, 465 for smtps)")
            }
            port = number
        } else {
            port = scheme == "smtps" ? 465 : 25
        }
        security = try SMTPURL.security(scheme: scheme, query: tail.dropFirst(), host: host, isLoopback: isLoopback)
    }

    private static func security(scheme: String, query: Substring, host: String, isLoopback: Bool) throws(Problem) -> Security {
        let choice: Substring?
        switch query {
        case "": choice = nil
        case "starttls=required", "starttls=off": choice = query.dropFirst("starttls=".count)
        default: throw Problem(message: "allows only the query ?starttls=required or ?starttls=off (the latter on loopback only)")
        }
        if scheme == "smtps" {
            guard choice == nil else { throw Problem(message: "must not say starttls with smtps://, which uses TLS from the first byte") }
            return .implicitTLS
        }
        if choice == "off" {
            guard isLoopback else {
                throw Problem(message: "must use STARTTLS to reach \(host), which is not on loopback (127.0.0.0/8, ::1, localhost): "
                    + "remove ?starttls=off, or use smtps://")
            }
            return .none
        }
        return choice == "required" || !isLoopback ? .startTLS : .none
    }

    /// The host as written (brackets kept for IPv6), the port's text if any, and whether the host is loopback.
    private static func readAuthority(_ authority: Substring) throws(Problem) -> (String, Substring?, Bool) {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw Problem(message: "has a '[' without a ']' around its IPv6 address") }
            let address = authority[authority.index(after: authority.startIndex)..<close]
            guard let groups = IPv6Address.groups(address) else { throw Problem(message: "must hold an IPv6 address without a zone inside [ ]") }
            let rest = authority[authority.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { throw Problem(message: "must follow ']' with ':' and a port, or nothing") }
            return ("[\(address)]", rest.isEmpty ? nil : rest.dropFirst(), IPv6Address.isLoopback(groups))
        }
        let name = authority.prefix { $0 != ":" }
        guard !name.isEmpty else { throw Problem(message: "must name a host, such as smtp://mail.example.org:587") }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        let isName = labels.allSatisfy { label in
            (1...63).contains(label.count) && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        }
        guard isName, name.count <= 253 else {
            throw Problem(message: "must name its host with letters, digits, '-' and '_' in dot-separated labels, or an IPv6 address in [ ]")
        }
        let portText = name.count == authority.count ? nil : authority.dropFirst(name.count + 1)
        guard let last = labels.last, last.allSatisfy({ $0.isNumber }) || last.lowercased().hasPrefix("0x") else {
            return (String(name), portText, name.lowercased() == "localhost")
        }
        let octets = labels.compactMap { label in label.count <= 3 && (label == "0" || !label.hasPrefix("0")) ? UInt8(label) : nil }
        guard labels.count == 4, octets.count == 4 else {
            throw Problem(message: "must write an IPv4 address as four decimal numbers from 0 to 255 without leading zeros, such as 127.0.0.1")
        }
        return (String(name), portText, octets[0] == 127)
    }
}
