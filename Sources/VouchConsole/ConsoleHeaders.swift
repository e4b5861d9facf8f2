import VouchHTTP

/// The headers every console answer carries (docs/console.md, "Security").
enum ConsoleHeaders {
    /// No script, no frame, no other origin: the pages need none. Forms post only to the console itself.
    static let contentSecurityPolicy = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    static let security: [(name: String, value: String)] = [
        (name: "Content-Security-Policy", value: contentSecurityPolicy),
        (name: "X-Content-Type-Options", value: "nosniff"),
        // Personal links carry their secret in the path; no other site ever learns an address of the console.
        (name: "Referrer-Policy", value: "no-referrer"),
        (name: "X-Frame-Options", value: "DENY"),
        (name: "Cross-Origin-Opener-Policy", value: "same-origin"),
        (name: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()"),
    ]

    /// Pages show testers' data: no cache keeps them, and the back button after sign-out shows nothing.
    static let noStore = (name: "Cache-Control", value: "no-store")

    static func secure(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.headers += security
        if response.header("cache-control") == nil { response.headers.append(noStore) }
        return response
    }
}
