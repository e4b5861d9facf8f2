import Foundation
import Testing
import VouchOIDC

@Suite struct AuthorizationRequestTests {
    /// RFC 7636 Appendix B.
    @Test func theS256ChallengeIsTheRFCsExample() {
        #expect(AuthorizationRequest.codeChallenge(for: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test func eachSignInHasItsOwnSecretsOfTheLengthRFC7636Asks() {
        let first = AuthorizationRequest.random()
        let second = AuthorizationRequest.random()
        #expect(Set([first.state, first.nonce, first.codeVerifier, second.state, second.nonce, second.codeVerifier]).count == 6)
        // 32 bytes are 43 characters, the shortest verifier RFC 7636 §4.1 allows.
        #expect([first.state, first.nonce, first.codeVerifier].allSatisfy { $0.count == 43 })
    }

    @Test func theAddressCarriesTheParametersAndKeepsTheEndpointsOwnQuery() throws {
        let request = AuthorizationRequest(state: "s-1", nonce: "n-1", codeVerifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        let address = try #require(request.url(authorizationEndpoint: "https://idp.example.org/auth?realm=staff", clientID: "vouch+console",
                                               redirectURL: "https://vouch.example.com/console/sign-in/oidc/callback",
                                               scopes: ["openid", "email", "groups"]))
        let items = try #require(URLComponents(string: address)?.queryItems)
        let values = Dictionary(uniqueKeysWithValues: items.map { ($0.name, $0.value ?? "") })
        #expect(values == ["realm": "staff", "response_type": "code", "client_id": "vouch+console",
                           "redirect_uri": "https://vouch.example.com/console/sign-in/oidc/callback", "scope": "openid email groups",
                           "state": "s-1", "nonce": "n-1", "code_challenge": "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
                           "code_challenge_method": "S256"])
        #expect(address.hasPrefix("https://idp.example.org/auth?realm=staff&response_type=code&client_id=vouch%2Bconsole&"))
        #expect(!address.contains("dBjftJeZ4CVP"), "the verifier itself never leaves before the token request")
    }
}
