import Testing
import VouchHTTP

/// Path prefixes are compared byte for byte, as the router compares paths.
@Suite struct HTTPRequestPathTests {
    @Test(arguments: [
        ("/ofrep/v1/evaluate/flags", "/ofrep/", true),
        ("/ofrep/", "/ofrep/", true),
        ("/ofrep", "/ofrep/", false),
        ("", "/v1/", false),
        ("/V1/fixes", "/v1/", false),
        ("/console/fixes", "/console/", true),
        // A combining mark after the prefix: by Unicode rules "/v1/" is not a prefix (the mark joins the "/"),
        // by bytes it is, which is how the router sees it.
        ("/v1/\u{301}x", "/v1/", true),
    ] as [(String, StaticString, Bool)])
    func startsWith(path: String, prefix: StaticString, expected: Bool) {
        #expect(HTTPRequest(method: "GET", path: path).pathStarts(with: prefix) == expected)
    }
}
