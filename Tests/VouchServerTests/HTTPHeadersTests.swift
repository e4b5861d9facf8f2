import Testing
import VouchHTTP

struct HTTPHeadersTests {
    @Test func setsReplacesAndRemovesByName() {
        var headers: HTTPHeaders = ["authorization": "Bearer a", "host": "vouch"]
        #expect(headers["authorization"] == "Bearer a")
        #expect(headers["x-api-key"] == nil)
        headers["authorization"] = "Bearer b"
        #expect(headers["authorization"] == "Bearer b")
        headers["host"] = nil
        #expect(headers["host"] == nil)
        #expect(headers == ["authorization": "Bearer b"])
        headers["authorization"] = nil
        #expect(headers.isEmpty)
    }

    @Test func equalityIgnoresOrderButNotValues() {
        #expect(HTTPHeaders(["a": "1", "b": "2"]) == ["b": "2", "a": "1"])
        #expect(HTTPHeaders(["a": "1", "b": "2"]) != ["a": "1", "b": "3"])
        #expect(HTTPHeaders(["a": "1"]) != ["a": "1", "b": "2"])
    }

    @Test func requestHeaderLooksUpAnyCase() {
        let request = HTTPRequest(method: "GET", path: "/", headers: ["content-type": "application/json"])
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.header("content-type") == "application/json")
    }
}
