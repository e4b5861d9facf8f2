import Foundation
import Testing
import VouchOIDC

@Suite struct TokenExchangeTests {
    @Test func theRequestCarriesTheCodeAndVerifierAsAForm() {
        let body = String(decoding: TokenExchange.body(code: "a/b+c", redirectURL: "https://vouch.example.com/console/sign-in/oidc/callback",
                                                       clientID: "vouch console", codeVerifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"), as: UTF8.self)
        #expect(body == "grant_type=authorization_code&code=a%2Fb%2Bc"
            + "&redirect_uri=https%3A%2F%2Fvouch.example.com%2Fconsole%2Fsign-in%2Foidc%2Fcallback&client_id=vouch%20console"
            + "&code_verifier=dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        let decoded = URLComponents(string: "?" + body)?.queryItems?.map { ($0.name, $0.value ?? "") }
        #expect(decoded?.first { $0.0 == "code" }?.1 == "a/b+c")
    }

    @Test func theSecretGoesInBasicAuthenticationOnlyWhenThereIsOne() {
        let confidential = TokenExchange.headers(clientID: "vouch", clientSecret: "s3:cret")
        // "vouch:s3%3Acret" in base64: the colon in the secret is encoded first (RFC 6749 §2.3.1).
        #expect(confidential.contains { $0 == ("Authorization", "Basic " + Data("vouch:s3%3Acret".utf8).base64EncodedString()) })
        #expect(confidential.contains { $0 == ("Content-Type", "application/x-www-form-urlencoded") })
        #expect(!TokenExchange.headers(clientID: "vouch", clientSecret: nil).contains { $0.0 == "Authorization" })
    }

    @Test func theIdTokenIsReadAndRefusalsKeepOnlyTheProvidersCode() throws {
        let answer = Array(#"{"access_token":"at","token_type":"Bearer","id_token":"h.c.s","expires_in":300}"#.utf8)
        #expect(try TokenExchange.idToken(status: 200, body: answer) == "h.c.s")
        #expect(throws: TokenExchange.Refusal.providerError(code: "invalid_grant", status: 400)) {
            try TokenExchange.idToken(status: 400, body: Array(#"{"error":"invalid_grant","error_description":"code already used"}"#.utf8))
        }
        #expect(throws: TokenExchange.Refusal.providerError(code: "no error code", status: 502)) {
            try TokenExchange.idToken(status: 502, body: Array("<html>Bad gateway</html>".utf8))
        }
        #expect(throws: TokenExchange.Refusal.malformed("no id_token")) {
            try TokenExchange.idToken(status: 200, body: Array(#"{"access_token":"at"}"#.utf8))
        }
        #expect(throws: TokenExchange.Refusal.malformed("not JSON")) { try TokenExchange.idToken(status: 200, body: Array("id_token=x".utf8)) }
    }
}
