import Testing
import VouchHTTP
@testable import VouchServer

/// Only the two evaluation paths as clients send them skip the router; every other form of them is routed as before.
struct OFREPDirectRouteTests {
    @Test(arguments: [
        ("POST", "/ofrep/v1/evaluate/flags", OFREPController.DirectRoute.all),
        ("POST", "/ofrep/v1/evaluate/flags/ios.labels", .one(key: "ios.labels")),
        ("POST", "/ofrep/v1/evaluate/flags/a b", .one(key: "a b")),
    ])
    func takesTheExactPaths(method: String, path: String, route: OFREPController.DirectRoute) {
        #expect(OFREPController.directRoute(of: HTTPRequest(method: method, path: path)) == route)
    }

    @Test(arguments: [
        ("GET", "/ofrep/v1/evaluate/flags/ios.labels"),
        ("HEAD", "/ofrep/v1/evaluate/flags"),
        ("OPTIONS", "/ofrep/v1/evaluate/flags"),
        ("POST", "/ofrep/v1/evaluate/flags/"),
        ("POST", "/ofrep/v1/evaluate/flags/a/b"),
        ("POST", "/ofrep/v1/evaluate/flags/a/"),
        ("POST", "/ofrep/v1/evaluate/flagsX"),
        ("POST", "//ofrep/v1/evaluate/flags"),
        ("POST", "/ofrep/v1/evaluate"),
    ])
    func leavesOtherFormsToTheRouter(method: String, path: String) {
        #expect(OFREPController.directRoute(of: HTTPRequest(method: method, path: path)) == nil)
    }
}
