import Foundation
import VouchJSON

/// The token request that redeems an authorization code (RFC 6749 §4.1.3 with PKCE's `code_verifier`, RFC 7636
/// §4.5), and the ID token read from its answer. The client secret, when there is one, goes in the Authorization
/// header (`client_secret_basic`, the method every provider must support), never in a URL. No part of the request or
/// answer is logged, and the refusals carry the provider's error code only, never the code or a token.
public enum TokenExchange {
    /// Why the token endpoint gave no ID token.
    public enum Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        /// The provider refused (RFC 6749 §5.2): `invalid_grant` for a code used twice, expired, or redeemed with the
        /// wrong verifier; `invalid_client` for a wrong secret.
        case providerError(code: String, status: Int)
        /// A 200 answer without an `id_token`, or not JSON.
        case malformed(String)

        public var description: String {
            switch self {
            case .providerError(let code, let status): "the identity provider refused the code (HTTP \(status), \(code))"
            case .malformed(let reason): "the identity provider's token answer is not usable: \(reason)"
            }
        }
    }

    /// The form body of the token request.
    public static func body(code: String, redirectURL: String, clientID: String, codeVerifier: String) -> [UInt8] {
        let fields = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURL), ("client_id", clientID),
                      ("code_verifier", codeVerifier)]
        return Array(fields.map { "\(formEncoded($0.0))=\(formEncoded($0.1))" }.joined(separator: "&").utf8)
    }

    /// The request's headers: the form's type, JSON wanted, and HTTP Basic with the client id and secret, each
    /// form-encoded first as RFC 6749 §2.3.1 asks.
    public static func headers(clientID: String, clientSecret: String?) -> [(String, String)] {
        var headers = [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")]
        if let clientSecret {
            let credentials = formEncoded(clientID) + ":" + formEncoded(clientSecret)
            headers.append(("Authorization", "Basic " + Data(credentials.utf8).base64EncodedString()))
        }
        return headers
    }

    /// The ID token of the token endpoint's answer.
    public static func idToken(status: Int, body: [UInt8]) throws(Refusal) -> String {
        let document = try? JSONParser.parse(body)
        guard status == 200 else {
            let code = document?["error"]?.stringValue.flatMap { $0.utf8.allSatisfy { (0x20...0x7E).contains($0) } ? $0 : nil } ?? "no error code"
            throw .providerError(code: String(code.prefix(64)), status: status)
        }
        guard let document else { throw .malformed("not JSON") }
        guard let token = document["id_token"]?.stringValue, !token.isEmpty else { throw .malformed("no id_token") }
        return token
    }

    /// application/x-www-form-urlencoded: unreserved characters kept, everything else percent-encoded.
    static func formEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
