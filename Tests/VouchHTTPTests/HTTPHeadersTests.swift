import Testing
@testable import VouchHTTP

/// Headers read from the wire stay bytes until asked for as text; either way they read the same.
@Suite struct HTTPHeadersTests {
    static func received(_ pairs: [(String, [UInt8])]) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for (name, value) in pairs { value.withUnsafeBytes { headers.append(name: name, bytes: $0) } }
        return headers
    }

    @Test func receivedValuesReadAsTextAndAsBytes() {
        let headers = HTTPHeadersTests.received([("authorization", Array("Bearer vch_x".utf8)), ("host", Array("h:1".utf8)), ("x-empty", [])])
        #expect(headers["authorization"] == "Bearer vch_x")
        #expect(headers["host"] == "h:1")
        #expect(headers["x-empty"] == "")
        #expect(headers["origin"] == nil)
        #expect(headers.contains("host") && headers.contains("x-empty") && !headers.contains("origin"))
        #expect(headers.withValueBytes("authorization") { $0.map { Array($0) } } == Array("Bearer vch_x".utf8))
        #expect(headers.withValueBytes("origin") { $0 == nil })
        #expect(headers == ["authorization": "Bearer vch_x", "host": "h:1", "x-empty": ""])
    }

    @Test func invalidUTF8IsRepairedAsTextAndKeptAsBytes() {
        let headers = HTTPHeadersTests.received([("x-request-id", [0x61, 0xFF, 0x62])])
        #expect(headers["x-request-id"] == "a\u{FFFD}b")
        #expect(headers.withValueBytes("x-request-id") { $0.map { Array($0) } } == [0x61, 0xFF, 0x62])
    }

    @Test func settingReplacesAReceivedValueAndNilRemovesIt() {
        var headers = HTTPHeadersTests.received([("content-type", Array("text/plain".utf8)), ("origin", Array("https://a".utf8))])
        headers["content-type"] = "application/json"
        headers["origin"] = nil
        headers["cookie"] = "s=1"
        #expect(headers["content-type"] == "application/json")
        #expect(headers.withValueBytes("content-type") { $0.map { Array($0) } } == Array("application/json".utf8))
        #expect(!headers.contains("origin"))
        #expect(headers == ["content-type": "application/json", "cookie": "s=1"])
    }

    @Test(arguments: [
        ("application/json", "application/json"),
        ("Application/JSON; charset=utf-8", "application/json"),
        (" text/plain ;q=1", "text/plain"),
        ("application/merge-patch+json", "application/merge-patch+json"),
        ("", ""),
    ])
    func mediaTypeFromReceivedBytes(contentType: String, mediaType: String) {
        let request = HTTPRequest(method: "POST", path: "/", headers: HTTPHeadersTests.received([("content-type", Array(contentType.utf8))]))
        #expect(request.mediaType == mediaType)
    }

    @Test func noContentTypeIsNoMediaType() {
        #expect(HTTPRequest(method: "POST", path: "/").mediaType == nil)
    }
}
