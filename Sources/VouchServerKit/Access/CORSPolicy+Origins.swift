import Foundation
import VouchDomain

extension CORSPolicy {
    /// Reads `ofrep.cors_origins`: `*`, or origins separated by commas (`https://app.example.com`).
    ///
    /// Each origin is kept as a browser sends it in `Origin`: lowercased, without the scheme's default port;
    /// any scheme is accepted, since hybrid apps have their own (`capacitor://localhost`).
    static func origins(parsing text: String, field: String) throws(FieldError) -> Origins {
        let entries = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        if entries == ["*"] { return .any }
        var origins: Set<String> = []
        for entry in entries {
            guard entry != "*" else {
                throw FieldError(field: field, message: "* allows every origin and stands alone; list origins or write * only")
            }
            guard let origin = normalizedOrigin(entry) else {
                throw FieldError(field: field, message: "'\(entry)' is not an origin: expected * or origins separated by commas, each "
                                 + "scheme://host or scheme://host:port with nothing after it (no path, not even /), such as "
                                 + "https://app.example.com; a host that is not ASCII is written in its xn-- form")
            }
            origins.insert(origin)
        }
        return .listed(origins)
    }

    /// `entry` as a browser serializes an origin, or nil when it is not one.
    private static func normalizedOrigin(_ entry: String) -> String? {
        let lowered = entry.lowercased()
        guard let separator = lowered.range(of: "://") else { return nil }
        let scheme = lowered[..<separator.lowerBound]
        var authority = lowered[separator.upperBound...]
        guard let first = scheme.unicodeScalars.first, isLetter(first),
              scheme.unicodeScalars.allSatisfy({ isLetter($0) || isDigit($0) || "+-.".unicodeScalars.contains($0) }) else { return nil }
        var port: Int?
        // The port follows the last ':' after the host; an IPv6 host's own colons sit inside its brackets.
        if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
            let digits = authority[authority.index(after: colon)...]
            guard !digits.isEmpty, digits.count <= 5, digits.unicodeScalars.allSatisfy(isDigit),
                  let number = Int(digits), (1...65_535).contains(number) else { return nil }
            port = number
            authority = authority[..<colon]
        }
        guard isHost(authority) else { return nil }
        let defaultPort = ["http": 80, "https": 443][String(scheme)]
        guard let port, port != defaultPort else { return "\(scheme)://\(authority)" }
        return "\(scheme)://\(authority):\(port)"
    }

    /// A name or IPv4 address of letters, digits, `-` and `.`, or an IPv6 address in brackets.
    private static func isHost(_ host: Substring) -> Bool {
        if host.hasPrefix("[") {
            let inside = host.dropFirst().dropLast()
            return host.hasSuffix("]") && inside.contains(":") && inside.unicodeScalars.allSatisfy { isHexDigit($0) || $0 == ":" || $0 == "." }
        }
        return !host.isEmpty && !host.hasPrefix(".") && host.unicodeScalars.allSatisfy { isLetter($0) || isDigit($0) || $0 == "-" || $0 == "." }
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) }
    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
    private static func isHexDigit(_ scalar: Unicode.Scalar) -> Bool { isDigit(scalar) || ("a"..."f").contains(scalar) }
}
