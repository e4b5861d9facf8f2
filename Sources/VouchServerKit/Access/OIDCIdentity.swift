import VouchDomain
import VouchIdentity
import VouchOIDC

/// Who an accepted ID token says signed in, as Vouch knows people: the principal from the configured claim,
/// normalised like every principal (so she and a token issued to the same name are one person for four-eyes), and
/// the role the first matching `console.oidc.roles` pair gives (docs/sign-in.md).
public struct OIDCIdentity: Sendable, Equatable {
    public var principal: PrincipalName
    public var role: Role

    /// Why a valid ID token still gives no one to sign in: each names the claim, for the refusal page.
    public enum Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        /// The claim is absent, or not a single string (the principal) or strings (the role claim).
        case missingClaim(String)
        /// The principal claim's value is not a name Vouch accepts (hidden characters, too long, reserved).
        case unusablePrincipal(claim: String, reason: String)
        /// The role claim is there, and none of its values is mapped.
        case noMappedRole(claim: String)

        public var description: String {
            switch self {
            case .missingClaim(let claim): "the identity provider's ID token has no usable \"\(claim)\" claim"
            case .unusablePrincipal(let claim, let reason): "the \"\(claim)\" claim cannot name a principal: \(reason)"
            case .noMappedRole(let claim): "none of the values of the \"\(claim)\" claim is mapped to a role (console.oidc.roles)"
            }
        }
    }

    public init(claims: IDTokenClaims, settings: OIDCSettings) throws(Refusal) {
        guard let names = claims.strings(settings.principalClaim), names.count == 1 else { throw .missingClaim(settings.principalClaim) }
        let principal: PrincipalName
        do { principal = try PrincipalName(names[0], field: settings.principalClaim) } catch {
            throw .unusablePrincipal(claim: settings.principalClaim, reason: error.message)
        }
        if principal.isReserved || principal.value.hasPrefix(PrincipalName.testerPrefix) {
            throw .unusablePrincipal(claim: settings.principalClaim, reason: "it is or looks like a name Vouch keeps for itself or for testers")
        }
        guard let values = claims.strings(settings.roleClaim) else { throw .missingClaim(settings.roleClaim) }
        guard let role = settings.role(for: values) else { throw .noMappedRole(claim: settings.roleClaim) }
        self.principal = principal
        self.role = role
    }
}
