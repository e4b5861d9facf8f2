import Foundation
import Testing
@testable import VouchHTTP
import VouchTestSupport

/// Request states are given back and taken again by later requests (`RequestState.recycle`): nothing of one request
/// may reach the next, whatever the order, on one connection or several, on one server thread or two.
@Suite struct RequestStateRecyclingTests {
    /// What the handler saw, as one line: method, path, the collected headers it reads, and the body.
    static func seen(_ request: HTTPRequest) -> String {
        let headers = ["x-request-id", "content-type", "origin", "if-none-match"].map { "\($0)=\(request.headers[$0] ?? "-")" }
        return "\(request.method) \(request.path) \(headers.joined(separator: " ")) body=\(String(decoding: request.body, as: UTF8.self))"
    }

    struct Sent {
        var method: String
        var path: String
        var headers: [(String, String)]
        var body: String

        var raw: String {
            var text = "\(method) \(path) HTTP/1.1\r\nHost: vouch\r\n"
            for (name, value) in headers { text += "\(name): \(value)\r\n" }
            if !body.isEmpty || method == "POST" { text += "Content-Length: \(body.utf8.count)\r\n" }
            return text + "\r\n" + body
        }

        var expected: String {
            let names = ["x-request-id", "content-type", "origin", "if-none-match"]
            let values = names.map { name in headers.first { $0.0.lowercased() == name }?.1 ?? "-" }
            return "\(method) \(path) \(zip(names, values).map { "\($0)=\($1)" }.joined(separator: " ")) body=\(body)"
        }
    }

    static let requests: [Sent] = [
        Sent(method: "POST", path: "/ofrep/v1/evaluate/flags/a-long-flag-key-past-fifteen-bytes", headers: [("X-Request-Id", "first-1"),
             ("Content-Type", "application/json"), ("Origin", "https://app.example")], body: #"{"context":{"targetingKey":"user-1"}}"#),
        Sent(method: "GET", path: "/v1/fixes", headers: [], body: ""),
        Sent(method: "POST", path: "/ofrep/v1/evaluate/flags/a-long-flag-key-past-fifteen-bytes", headers: [], body: ""),
        Sent(method: "POST", path: "/ofrep/v1/evaluate/flags/a-long-flag-key-past-fifteen-bytes", headers: [("If-None-Match", "\"e1\"")],
             body: String(repeating: "b", count: 5_000)),
        Sent(method: "PUT", path: "/v1/fixes/other", headers: [("content-type", "text/plain")], body: "x"),
        Sent(method: "POST", path: "/ofrep/v1/evaluate/flags/a-long-flag-key-past-fifteen-bytes", headers: [], body: "{}"),
    ]

    @Test func nothingOfARequestReachesTheNext() throws {
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threadCount: 2)) { request in
            .text(RequestStateRecyclingTests.seen(request))
        }
        let port = try server.start()
        defer { server.stop() }
        // Kept alive on one connection, then each on a new one, three times over, so states go round both stripes.
        let kept = try RawConnection(port: port)
        for _ in 0..<3 {
            for sent in RequestStateRecyclingTests.requests {
                try kept.send(sent.raw)
                let answer = try #require(try kept.readResponse())
                #expect(answer.body == sent.expected)
                let fresh = try RawConnection(port: port)
                try fresh.send(sent.raw)
                #expect(try fresh.readResponse()?.body == sent.expected)
            }
        }
    }

    /// The same with a direct handler that answers the POSTs under `/ofrep/` and leaves the rest (nil): each request
    /// reaches exactly one of the two, with its own method, path (without the query), headers, body and id.
    @Test func aDirectHandlerSeesTheRequestAsTheHandlerWouldAndLeavesTheRest() throws {
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threadCount: 2), handler: { request in
            .now(.text(RequestStateRecyclingTests.seen(request)))
        }, direct: { request in
            let method = request.withMethod(HeaderLines.text)
            let path = request.withPath(HeaderLines.text)
            guard method == "POST", path.hasPrefix("/ofrep/") else { return nil }
            var seen = HTTPRequest(method: method, path: path, headers: HeaderLines.collected(from: request),
                                   body: request.withBody { $0.withUnsafeBytes { Array($0) } })
            seen.requestID = request.requestID
            return .text("direct " + RequestStateRecyclingTests.seen(seen) + " id=" + request.requestID)
        })
        let port = try server.start()
        defer { server.stop() }
        let kept = try RawConnection(port: port)
        for _ in 0..<3 {
            for sent in RequestStateRecyclingTests.requests + [Sent(method: "POST", path: "/ofrep/v1/evaluate/flags/k?q=1", headers: [], body: "{}")] {
                try kept.send(sent.raw)
                let answer = try #require(try kept.readResponse())
                let id = try #require(answer.headers["x-request-id"])
                if sent.method == "POST", sent.path.hasPrefix("/ofrep/") {
                    let path = String(sent.path.prefix { $0 != "?" })
                    #expect(answer.body == "direct " + sent.expected.replacingOccurrences(of: sent.path, with: path) + " id=" + id)
                } else {
                    #expect(answer.body == sent.expected)
                }
                if let given = sent.headers.first(where: { $0.0.lowercased() == "x-request-id" }) { #expect(id == given.1) }
            }
        }
    }
}
