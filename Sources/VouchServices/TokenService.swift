import Foundation
import VouchCrypto
import VouchDomain
import VouchIdentity
import VouchStore

/// API tokens: issued to a principal with a role (the secret is shown once), listed, revoked.
public struct TokenService: Sendable {
    let store: any TokenStore
    let clock: @Sendable () -> Date

    public init(store: any TokenStore, clock: @escaping @Sendable () -> Date) {
        self.store = store
        self.clock = clock
    }

    /// A new token's secret.
    public static func makeSecret() -> String { "vch_" + SecureRandom.alphanumeric(count: 40) }

    /// Issues a token. Every value is as the person entered it; nil where nothing was entered.
    /// - Parameters:
    ///   - name: what the token is for.
    ///   - role: the role's name.
    ///   - tester: the tester a `tester` token acts as.
    ///   - issuedTo: the principal a staff token is issued to; the token's name when nil.
    /// - Returns: the token and its secret, which is kept nowhere and never shown again.
    /// - Parameter email: a staff principal's address for notifications by email; refused on a tester token.
    /// - Parameter eventStreams: false makes OFREP bulk answers to the token offer no push (`eventStreams`), for an app
    ///   whose provider refuses members it does not know; nil or true offers it, as `ofrep.event_streams` allows.
    /// - Parameter flagDefinitions: true makes an sdk token for a flagd, which reads every flag definition and so every
    ///   targeted key (docs/flagd.md); refused on any other role, whose role alone decides.
    public func create(name: String?, role roleName: String?, tester: String?, issuedTo principalText: String?, email: String? = nil,
                       eventStreams: Bool? = nil, flagDefinitions: Bool? = nil, readErrors: [FieldError] = [], by principal: Principal) throws -> (token: TokenRecord, secret: String) {
        try AccessDenied.unless(principal, may: .manageTokens)
        var errors = readErrors + NotificationPlanner.emailErrors(email)
        if let name {
            // Checked as sent, as the document's pattern checks it: a tab at either end is a control character too.
            if SchemaText.problem(name, limit: 100, required: true, lineBreaks: false) != nil
                || name.unicodeScalars.contains(where: \.properties.isDefaultIgnorableCodePoint) {
                errors.append(FieldError(field: "name", message: "must be 1 to 100 visible characters, without control or invisible characters: what the token is for"))
            }
        } else {
            errors.append(FieldError(field: "name", message: "is required: what the token is for, such as 'ios-app' or 'Rita's laptop'"))
        }
        var role: Role?
        if let roleName {
            role = Role(rawValue: roleName)
            if role == nil { errors.append(FieldError(field: "role", message: "'\(roleName)' is not a role; allowed: \(Role.allowedList)")) }
        } else {
            errors.append(FieldError(field: "role", message: "is required; allowed: \(Role.allowedList)"))
        }
        if role == .tester, tester == nil {
            errors.append(FieldError(field: "tester", message: "a tester token must name its tester (t_…)"))
        } else if role != .tester, tester != nil {
            errors.append(FieldError(field: "tester", message: "only tokens with the role tester are bound to a tester"))
        }
        if role == .tester, email?.isEmpty == false {
            errors.append(FieldError(field: "email", message: "a tester's address is the tester's own email; leave email out of a tester token"))
        }
        if role == .tester, principalText != nil {
            errors.append(FieldError(field: "principal", message: "a tester token's principal is its tester; leave principal out"))
        }
        if let role, role != .sdk, flagDefinitions == true {
            errors.append(FieldError(field: "flag_definitions", message: "only an sdk token is made for flag definitions; admin, release_manager "
                + "and maintainer tokens read them already, and a tester token never does"))
        }
        // A staff token is issued to a principal: the one named, or else the token's name, normalised.
        var issuedTo: (name: PrincipalName, field: String)?
        if role != .tester, errors.isEmpty, let source = principalText.map({ ($0, "principal") }) ?? name.map({ ($0, "name") }) {
            do {
                let normalized = try PrincipalName(source.0, field: source.1)
                if let reserved = normalized.reservedLookAlike {
                    errors.append(FieldError(field: source.1, message: "'\(normalized.value)' is or looks like the reserved name '\(reserved)'; "
                        + "vouchd, withdrawn, system, anonymous and names starting with t_ (testers' pseudonyms) are kept for the server"))
                }
                issuedTo = (normalized, source.1)
            } catch {
                errors.append(error)
            }
        }
        guard errors.isEmpty, let name, let role else { throw ValidationFailure(errors) }
        let secret = TokenService.makeSecret()
        let record = TokenRecord(id: "tok_" + SecureRandom.alphanumeric(count: 16), name: name.trimmingCharacters(in: .whitespaces),
                                 principalName: issuedTo?.name.value ?? tester ?? "", role: role, testerID: tester, secretSHA256: Digest.sha256(secret),
                                 createdBy: principal.name, createdAt: clock(), email: email.flatMap { $0.isEmpty ? nil : $0 },
                                 eventStreams: eventStreams ?? true, flagDefinitions: flagDefinitions ?? false)
        try store.createToken(record, principal: issuedTo, by: Requester(principal))
        return (record, secret)
    }

    public func tokens(after id: String?, limit: Int, for principal: Principal) throws -> [TokenRecord] {
        try AccessDenied.unless(principal, may: .manageTokens)
        return try store.tokens(after: id, limit: limit)
    }

    /// Revokes a token at once; the last admin token is kept, so someone can still make tokens.
    public func revoke(_ id: String, by principal: Principal) throws -> TokenRecord {
        try AccessDenied.unless(principal, may: .manageTokens)
        return try store.revokeToken(id, by: Requester(principal), at: clock())
    }
}
