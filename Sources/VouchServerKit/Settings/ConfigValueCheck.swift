import Foundation
import VouchCodec
import VouchDomain
import VouchMail

/// The rule a configuration value must follow, with the words that explain it.
enum ConfigValueCheck: Sendable {
    case listenAddress
    case path
    case oneOf([String])
    case integer(ClosedRange<Int>)
    case ratio
    /// A duration whose seconds lie in the range.
    case duration(ClosedRange<Int>)
    /// Durations separated by commas, each in the range.
    case durationList(ClosedRange<Int>)
    case percentageList
    case boolean
    case assistiveTechList
    /// `*` or web origins separated by commas.
    case originList
    /// Empty, or where clients reach vouchd: `http(s)://host[:port][/path]`, no query, fragment or user.
    case publicURL
    /// Empty (SQLite in the state directory), a `postgres://` or `postgresql://` URL, or libpq `key=value` settings.
    case databaseURL
    /// Text people read, such as a name or an address to write to: up to so many characters, none of them control
    /// characters (it ends up in pages and mail headers).
    case text(maxCharacters: Int)
    /// Empty (no mail), or the relay as `SMTPURL` reads it.
    case smtpURL
    /// Empty, or a plain `local@domain` address (`MailAddress`).
    case mailAddress
    /// Empty, or a path.
    case optionalPath
    /// Empty, or an OpenID Provider's issuer: `https://` (or `http://` to a loopback address), no query or fragment.
    case issuerURL
    /// OAuth scopes separated by spaces, `openid` among them.
    case scopeList
    /// The name of an ID token claim.
    case claimName
    /// `VALUE=ROLE` pairs separated by commas, each role a staff role (`OIDCSettings.roles(parsing:)`).
    case roleMapping

    /// Nil when `value` is fine, otherwise what is allowed.
    func problem(with value: String) -> String? {
        switch self {
        case .listenAddress:
            guard let colon = value.lastIndex(of: ":"), let port = Int(value[value.index(after: colon)...]), (0...65_535).contains(port),
                  colon != value.startIndex else {
                return "expected HOST:PORT such as 127.0.0.1:8750 or [::1]:8750, with a port from 0 to 65535"
            }
            return nil
        case .path:
            return value.isEmpty ? "expected a directory path" : nil
        case .oneOf(let allowed):
            return allowed.contains(value) ? nil : "allowed: \(allowed.joined(separator: ", "))"
        case .integer(let range):
            // Int(_:) returns nil rather than overflowing, so a 30-digit number is refused like any other.
            guard let number = Int(value), range.contains(number) else { return "expected a whole number from \(range.lowerBound) to \(range.upperBound)" }
            return nil
        case .ratio:
            guard let number = Double(value), (0...1).contains(number) else { return "expected a number from 0 to 1, such as 0.8" }
            return nil
        case .duration(let range):
            // Configuration is read by people, not by the API's schema: spaces around a value are allowed.
            do { _ = try DurationText.seconds(value.trimmingCharacters(in: .whitespaces), field: "value", allowed: range) } catch {
                return "expected a duration \(DurationText.describe(range)), such as 10s, 15m, 24h or 7d"
            }
            return nil
        case .durationList(let range):
            let parts = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            for part in parts {
                do { _ = try DurationText.seconds(part, field: "value", allowed: range) } catch {
                    return "expected durations separated by commas, such as 5s,5m,30m, each \(DurationText.describe(range)); '\(part)' is not"
                }
            }
            return parts.isEmpty ? "expected durations separated by commas, such as 5s,5m,30m" : nil
        case .percentageList:
            // The same rule as a fix's own rollout profile.
            let numbers = value.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard numbers.allSatisfy({ $0 != nil }), RolloutPlan.validate(steps: numbers.compactMap { $0 }, intervalSeconds: 1).isEmpty else {
                return "expected increasing percentages from 1 to 100 ending with 100, such as 1,2,5,10,20,50,100"
            }
            return nil
        case .boolean:
            return ["true", "false"].contains(value) ? nil : "allowed: true, false"
        case .assistiveTechList:
            // Parsed by the domain, which knows the platforms and technologies.
            do { _ = try CriteriaSettings.requirements(parsing: value, field: "criteria.required_assistive_tech") } catch { return error.message }
            return nil
        case .originList:
            do { _ = try CORSPolicy.origins(parsing: value, field: "ofrep.cors_origins") } catch { return error.message }
            return nil
        case .publicURL:
            let allowed = "expected empty or an address such as https://flags.example.com or https://example.com/vouch, with no query, fragment or user"
            guard !value.isEmpty else { return nil }
            guard let url = URLComponents(string: value), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil, url.user == nil, url.password == nil,
                  value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "\"") }) else { return allowed }
            return nil
        case .databaseURL:
            guard !value.isEmpty else { return nil }
            let lowered = value.lowercased()
            if lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") || value.contains("=") { return nil }
            return "expected empty (SQLite in the state directory), a PostgreSQL URL such as postgres://vouch@db.example.com/vouch, "
                + "or libpq settings such as 'host=db.example.com dbname=vouch user=vouch'"
        case .text(let maxCharacters):
            guard value.count <= maxCharacters, !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                return "expected text of up to \(maxCharacters) characters, on one line, with no control characters"
            }
            return nil
        case .smtpURL:
            guard !value.isEmpty else { return nil }
            do { _ = try SMTPURL(value) } catch { return "expected empty (no mail) or \(error)" }
            return nil
        case .mailAddress:
            guard !value.isEmpty else { return nil }
            do { _ = try MailAddress(value, for: .from) } catch { return "expected empty or an address such as vouch@example.com: \(error.problem)" }
            return nil
        case .optionalPath:
            return nil
        case .issuerURL:
            return OIDCSettings.issuerProblem(value)
        case .scopeList:
            return OIDCSettings.scopes(parsing: value) == nil ? "expected scopes separated by spaces, openid among them, such as openid email profile groups" : nil
        case .claimName:
            guard !value.isEmpty, value.count <= 200, value.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }) else {
                return "expected the name of a claim, such as groups or email: up to 200 characters, no spaces"
            }
            return nil
        case .roleMapping:
            do { _ = try OIDCSettings.roles(parsing: value) } catch { return error.reason }
            return nil
        }
    }
}
