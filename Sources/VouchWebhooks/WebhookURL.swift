import Foundation

/// A webhook URL read strictly, so that the host Vouch checks is the host libcurl connects to.
///
/// Accepted: `http` or `https`, `://`, a DNS name or an IP address (an IPv6 address in brackets), an optional
/// port from 1 to 65535, then any path and query in printable ASCII. Refused, because some URL parser reads
/// them differently or they could split the request: control characters (a raw CR or LF would end the request
/// line), spaces and non-ASCII text; a user name or password; percent-encoding or other punctuation in the host;
/// brackets around anything but an IPv6 address (`http://[1.1.1.1]/`) or around an IPv6 zone; and an IPv4
/// address written other than as four decimal numbers (`http://2130706433/` is 127.0.0.1 to curl).
public struct WebhookURL: Sendable, Equatable {
    public enum Host: Sendable, Equatable {
        case name(String)
        case ipv4(String)
        /// Without its brackets.
        case ipv6(String)
    }

    /// What is wrong with a URL, worded to follow the field name ("url must …").
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    public static let maxLength = 2_000

    public var host: Host
    public var port: Int

    public init(_ text: String) throws(Problem) {
        let bytes = Array(text.utf8)
        guard bytes.count <= WebhookURL.maxLength else { throw Problem(message: "must be at most \(WebhookURL.maxLength) characters") }
        if bytes.contains(0x0D) || bytes.contains(0x0A) {
            throw Problem(message: "must not contain a carriage return or line feed")
        }
        guard bytes.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw Problem(message: "must be printable ASCII without spaces or control characters; percent-encode others in the path or query")
        }
        let lowered = text.lowercased()
        let scheme = ["http", "https"].first { lowered.hasPrefix($0 + "://") }
        guard let scheme else { throw Problem(message: "must be an http:// or https:// URL") }
        let afterScheme = text.dropFirst(scheme.count + 3)
        let authority = afterScheme.prefix { !"/?#".contains($0) }
        if authority.contains("@") { throw Problem(message: "must not carry a user name or password; authenticate with the signature") }
        let portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw Problem(message: "has a '[' without a ']' around its IPv6 address") }
            let address = String(authority[authority.index(after: authority.startIndex)..<close])
            guard WebhookURL.isIPv6(address) else {
                throw Problem(message: "must hold an IPv6 address, without a zone, inside [ ]; write an IPv4 address or a name without brackets")
            }
            host = .ipv6(address)
            let rest = authority[authority.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { throw Problem(message: "must follow ']' with ':' and a port, or nothing") }
            portText = rest.isEmpty ? nil : rest.dropFirst()
        } else {
            let name = authority.prefix { $0 != ":" }
            host = try WebhookURL.readHost(String(name))
            portText = name.count == authority.count ? nil : authority.dropFirst(name.count + 1)
        }
        if let portText {
            guard (1...5).contains(portText.count), portText.allSatisfy(\.isASCIIDigit), let number = Int(portText), (1...65_535).contains(number) else {
                throw Problem(message: "must have a port from 1 to 65535 after ':', got '\(portText)'")
            }
            port = number
        } else {
            port = scheme == "https" ? 443 : 80
        }
    }

    /// A DNS name, or an IPv4 address as four decimal numbers; anything whose last label is a number must be the latter.
    private static func readHost(_ text: String) throws(Problem) -> Host {
        guard !text.isEmpty else { throw Problem(message: "must name a host") }
        let allowed = text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isASCIIDigit || "-_.".contains($0)) }
        guard allowed else {
            throw Problem(message: "must name its host with letters, digits, '-', '_' and '.' only (no percent-encoding), got '\(text)'")
        }
        let labels = (text.hasSuffix(".") ? text.dropLast() : Substring(text)).split(separator: ".", omittingEmptySubsequences: false)
        guard text.count <= 253, labels.allSatisfy({ (1...63).contains($0.count) }) else {
            throw Problem(message: "must name a host of dot-separated labels of 1 to 63 characters, got '\(text)'")
        }
        let last = labels[labels.count - 1]
        let looksNumeric = last.allSatisfy(\.isASCIIDigit) || last.lowercased().hasPrefix("0x")
        guard looksNumeric else { return .name(text) }
        let isDottedQuad = labels.count == 4 && !text.hasSuffix(".") && labels.allSatisfy { label in
            label.allSatisfy(\.isASCIIDigit) && label.count <= 3 && (label == "0" || !label.hasPrefix("0")) && Int(label)! <= 255
        }
        guard isDottedQuad else {
            throw Problem(message: "must write an IPv4 address as four decimal numbers from 0 to 255 without leading zeros (like 203.0.113.7), got '\(text)'")
        }
        return .ipv4(text)
    }

    static func isIPv6(_ text: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET6, text, &address) == 1
    }
}

extension WebhookURL.Host {
    /// As written in the URL, an IPv6 address in brackets.
    public var text: String {
        switch self {
        case .name(let text), .ipv4(let text): text
        case .ipv6(let text): "[\(text)]"
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
