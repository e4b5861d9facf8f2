import Foundation
import VouchJSON

/// An ID token's claims after every check passed. `all` keeps the whole object, so the caller can read the configured
/// principal and role claims.
public struct IDTokenClaims: Sendable {
    public var issuer: String
    public var subject: String
    public var audiences: [String]
    public var expiresAt: Date
    public var issuedAt: Date
    public var all: JSONObject

    public init(issuer: String, subject: String, audiences: [String], expiresAt: Date, issuedAt: Date, all: JSONObject) {
        self.issuer = issuer
        self.subject = subject
        self.audiences = audiences
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
        self.all = all
    }

    /// A claim's string values: a string is one value, an array of strings its strings; anything else none.
    public func strings(_ claim: String) -> [String]? {
        switch all[claim] {
        case .string(let value)?: return [value]
        case .array(let values)?:
            let strings = values.compactMap(\.stringValue)
            return strings.count == values.count ? strings : nil
        default: return nil
        }
    }
}
