import Foundation
import Testing
import VouchDomain
import VouchJSON
import VouchOIDC
import VouchServerKit

/// Who an accepted ID token names, and the refusals that name the claim (docs/sign-in.md).
@Suite struct OIDCIdentityTests {
    let settings = OIDCSettings(issuer: "https://idp.example.org", clientID: "vouch", roleClaim: "groups",
                                roles: [.init(claimValue: "vouch-release-managers", role: .releaseManager), .init(claimValue: "vouch-admins", role: .admin)],
                                principalClaim: "email")

    private func claims(_ extra: JSONObject) -> IDTokenClaims {
        var all: JSONObject = ["iss": .string("https://idp.example.org"), "sub": .string("u-1"), "aud": .string("vouch")]
        all.merge(extra)
        return IDTokenClaims(issuer: "https://idp.example.org", subject: "u-1", audiences: ["vouch"], expiresAt: Date(timeIntervalSince1970: 2_000_000_000),
                             issuedAt: Date(timeIntervalSince1970: 1_999_999_000), all: all)
    }

    private func refusal(_ extra: JSONObject) -> OIDCIdentity.Refusal? {
        do {
            _ = try OIDCIdentity(claims: claims(extra), settings: settings)
            return nil
        } catch {
            return error
        }
    }

    @Test func thePrincipalIsNormalisedLikeATokensAndTheFirstMappedRoleWins() throws {
        let identity = try OIDCIdentity(claims: claims(["email": .string("  Ana@ＥＸＡＭＰＬＥ.org "),
                                                        "groups": .strings(["staff", "vouch-admins", "vouch-release-managers"])]), settings: settings)
        #expect(identity.principal.value == "ana@example.org")
        #expect(identity.role == .releaseManager)
        let admin = try OIDCIdentity(claims: claims(["email": .string("ana@example.org"), "groups": .string("vouch-admins")]), settings: settings)
        #expect(admin.role == .admin)
    }

    @Test func eachRefusalNamesTheClaim() {
        #expect(refusal(["groups": .strings(["vouch-admins"])]) == .missingClaim("email"))
        #expect(refusal(["email": .strings(["a@example.org", "b@example.org"]), "groups": .strings(["vouch-admins"])]) == .missingClaim("email"))
        #expect(refusal(["email": .string("ana@example.org")]) == .missingClaim("groups"))
        #expect(refusal(["email": .string("ana@example.org"), "groups": .number(3)]) == .missingClaim("groups"))
        #expect(refusal(["email": .string("ana@example.org"), "groups": .strings(["staff"])]) == .noMappedRole(claim: "groups"))
        #expect(refusal(["email": .string("ana@example.org"), "groups": .strings([])]) == .noMappedRole(claim: "groups"))
        #expect(OIDCIdentity.Refusal.missingClaim("groups").description == "the identity provider's ID token has no usable \"groups\" claim")
    }

    @Test func aNameVouchKeepsOrThatHidesCharactersIsRefused() {
        for name in ["system", "t_4f2a", "ana\u{200B}@example.org"] {
            guard case .unusablePrincipal(claim: "email", _)? = refusal(["email": .string(name), "groups": .strings(["vouch-admins"])]) else {
                Issue.record("\(name) was not refused as a principal")
                continue
            }
        }
    }
}
