import Testing
@testable import VouchAPI
import VouchHTTP
@testable import VouchServer

/// Only the two evaluation paths as clients send them skip the router; every other form of them is routed as before.
struct OFREPDirectRouteTests {
    @Test(arguments: [
        ("POST", "/ofrep/v1/evaluate/flags", OFREPController.DirectRoute.all),
        ("POST", "/ofrep/v1/evaluate/flags/ios.labels", .one(keyOffset: 25)),
        ("POST", "/ofrep/v1/evaluate/flags/a b", .one(keyOffset: 25)),
        ("POST", "/ofrep/v1/evaluate/flags/ключ.é", .one(keyOffset: 25)),
        ("POST", "/ofrep/v1/evaluate/flags/" + String(repeating: "k", count: 300), .one(keyOffset: 25)),
    ])
    func takesTheExactPaths(method: String, path: String, route: OFREPController.DirectRoute) {
        #expect(OFREPController.directRoute(of: HTTPRequest(method: method, path: path)) == route)
        if case .one(let offset) = route {
            // The key is the last segment, whole, whatever its bytes.
            #expect(String(decoding: Array(path.utf8)[offset...], as: UTF8.self) == path.split(separator: "/").last.map(String.init))
        }
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
        ("POST", "/ofrep/v1/evaluate/flag"),
        ("POST", "/ofrep/v1/evaluate/Flags"),
        ("POST", ""),
        ("POST", "/"),
    ])
    func leavesOtherFormsToTheRouter(method: String, path: String) {
        #expect(OFREPController.directRoute(of: HTTPRequest(method: method, path: path)) == nil)
    }
}

/// Numbers in OFREP answers are written as digits straight into the body.
struct OFREPEncoderDecimalTests {
    @Test(arguments: [0, 7, 9, 10, 99, 100, 1_234_567, Int.max, -1, -10, Int.min])
    func writesTheSameDigitsAsString(number: Int) {
        var bytes: [UInt8] = Array("x".utf8)
        OFREPEncoder.appendDecimal(number, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "x" + String(number))
    }
}
