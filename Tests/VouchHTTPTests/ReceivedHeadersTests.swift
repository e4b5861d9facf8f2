import Foundation
import Testing
@testable import VouchHTTP
import VouchTestSupport

/// The collected headers read where libmicrohttpd keeps them (`ReceivedHeaders`): what the direct handler reads, and
/// what the general handler gets copied, are the first line of each collected name, in the order the lines came.
@Suite struct ReceivedHeadersTests {
    static let names = RequestHeaderScan.Names(["authorization", "x-api-key", "content-type", "x-request-id", "origin"])

    @Test func theFirstLineOfEachCollectedNameCountsInTheOrderTheyCame() {
        let received = ReceivedHeaders(names: ReceivedHeadersTests.names)
        var scan = RequestHeaderScan()
        let lines = [("Origin", "https://a.example"), ("X-Other", "not collected"), ("AUTHORIZATION", "Bearer first"),
                     ("authorization", "Bearer second"), ("Content-Type", ""), ("origin", "https://b.example")]
        HeaderLines.read(lines, names: ReceivedHeadersTests.names, into: &scan, received) {
            #expect(received.count == 3)
            #expect(received.value("authorization") == "Bearer first")
            #expect(received.value("origin") == "https://a.example")
            #expect(received.contains("content-type"), "an empty value is still a header")
            #expect(received.value("content-type") == "")
            #expect(!received.contains("x-api-key") && received.value("x-api-key") == nil)
            #expect(!received.contains("x-other"), "a name not collected is never kept")
            #expect(received.withValueBytes("x-request-id") { $0 == nil })
            #expect(received.value(key: 0).map { String(decoding: $0, as: UTF8.self) } == "Bearer first")
            #expect(received.value(key: 3) == nil && received.value(key: -1) == nil)
            let copied = HeaderLines.copied(received)
            #expect(copied == ["origin": "https://a.example", "authorization": "Bearer first", "content-type": ""])
            #expect(copied.fields.map(\.name) == ["origin", "authorization", "content-type"], "copied in the order the lines came")
        }
    }

    @Test func removeAllForgetsEveryHeaderForTheNextRequest() {
        let received = ReceivedHeaders(names: ReceivedHeadersTests.names)
        var scan = RequestHeaderScan()
        HeaderLines.read([("Authorization", "Bearer a"), ("X-Request-Id", "r1")], names: ReceivedHeadersTests.names, into: &scan, received) {
            #expect(received.count == 2)
        }
        received.removeAll()
        #expect(received.count == 0)
        #expect(!received.contains("authorization") && received.value(key: 0) == nil)
        var next = RequestHeaderScan()
        HeaderLines.read([("x-request-id", "r2")], names: ReceivedHeadersTests.names, into: &next, received) {
            #expect(received.value("x-request-id") == "r2", "the first line of the new request, not the old one's")
            #expect(HeaderLines.copied(received) == ["x-request-id": "r2"])
        }
    }

    static func described(_ headers: borrowing some HeaderReading & ~Copyable) -> String {
        ["authorization", "origin", "content-type", "x-request-id"].map { "\($0)=\(headers.value($0) ?? "-")" }.joined(separator: " ")
    }

    /// The values stay where libmicrohttpd put them while the body comes in, however large and in however many
    /// pieces: the direct handler reads them after the whole body, and the general one gets them copied then.
    @Test(arguments: [0, 100, 60_000])
    func valuesAreIntactAfterTheWholeBodyIsRead(bodyBytes: Int) throws {
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threadCount: 1, maxBodyBytes: 128 * 1024), handler: { request in
            .now(.text("general " + ReceivedHeadersTests.described(request.headers) + " body=\(request.body.count)"))
        }, direct: { request in
            guard request.withPath(HeaderLines.text) == "/direct" else { return nil }
            return .text("direct " + ReceivedHeadersTests.described(request) + " body=\(request.withBody { $0.byteCount })")
        })
        let port = try server.start()
        defer { server.stop() }
        let connection = try RawConnection(port: port)
        let token = "Bearer " + String(repeating: "t", count: 40)
        let body = String(repeating: "b", count: bodyBytes)
        for path in ["/direct", "/general", "/direct"] {
            try connection.send("POST \(path) HTTP/1.1\r\nHost: vouch\r\nAuthorization: \(token)\r\nOrigin: https://app.example\r\n"
                                + "Content-Type: application/json\r\nX-Request-Id: req-\(bodyBytes)\r\nContent-Length: \(bodyBytes)\r\n\r\n")
            // The body in pieces, so libmicrohttpd reads it in several calls and grows its read buffer.
            var sent = 0
            while sent < bodyBytes {
                let piece = min(7_000, bodyBytes - sent)
                try connection.send(String(body.utf8.dropFirst(sent).prefix(piece))!)
                sent += piece
            }
            let answer = try #require(try connection.readResponse())
            let expected = "authorization=\(token) origin=https://app.example content-type=application/json x-request-id=req-\(bodyBytes)"
            #expect(answer.body == (path == "/direct" ? "direct " : "general ") + expected + " body=\(bodyBytes)")
            #expect(answer.headers["x-request-id"] == "req-\(bodyBytes)")
        }
    }
}
