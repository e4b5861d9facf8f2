import Foundation
import Synchronization
import Testing
import VouchHTTP
import VouchJSON
import VouchTestSupport

/// Requests whose framing or target is ambiguous or malformed (RFC 9112 §6.3, §3.2): each is answered at once
/// with a problem document and an `X-Request-Id`, its connection is closed, and nothing sent behind it runs.
@Suite struct HTTPFramingTests {
    /// Every request the handler was given, as `METHOD path body`.
    final class Served: Sendable {
        let requests = Mutex<[String]>([])

        var all: [String] { requests.withLock { $0 } }
    }

    static func makeServer(maxBodyBytes: Int = 64 * 1024) throws -> (server: HTTPServer, port: UInt16, served: Served) {
        let served = Served()
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threadCount: 2, maxBodyBytes: maxBodyBytes)) { request in
            served.requests.withLock { $0.append("\(request.method) \(request.path) \(String(decoding: request.body, as: UTF8.self))") }
            return .text("ran \(request.path) with \(request.query.count) parameters")
        }
        return (server, try server.start(), served)
    }

    /// What came back for `raw`: the whole text the server sent before closing, and whether it closed.
    static func exchange(_ raw: [UInt8], port: UInt16) throws -> (text: String, closed: Bool) {
        let connection = try RawConnection(port: port)
        try connection.send(raw)
        return connection.readUntilClosed(within: 5)
    }

    struct Refused: CustomTestStringConvertible, Sendable {
        var name: String
        var raw: [UInt8]
        var status: Int
        var detail: String

        init(_ name: String, _ raw: String, _ status: Int, _ detail: String) {
            self.init(name, Array(raw.utf8), status, detail)
        }

        init(_ name: String, _ raw: [UInt8], _ status: Int, _ detail: String) {
            self.name = name
            self.raw = raw
            self.status = status
            self.detail = detail
        }

        var testDescription: String { name }
    }

    static let behind = "GET /pipelined HTTP/1.1\r\nHost: vouch\r\n\r\n"

    static let refused: [Refused] = [
        Refused("Content-Length and Transfer-Encoding", "POST /a HTTP/1.1\r\nHost: vouch\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
                    + behind, 400, "both Content-Length and Transfer-Encoding"),
        Refused("Transfer-Encoding then Content-Length", "POST /a HTTP/1.1\r\nHost: vouch\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n"
                    + behind, 400, "both Content-Length and Transfer-Encoding"),
        Refused("two different Content-Lengths", "POST /a HTTP/1.1\r\nHost: vouch\r\nContent-Length: 2\r\nContent-Length: 41\r\n\r\nab" + behind,
                400, "2 Content-Length headers"),
        Refused("two equal Content-Lengths", "POST /a HTTP/1.1\r\nHost: vouch\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nab" + behind,
                400, "2 Content-Length headers"),
        Refused("an unknown transfer coding", "POST /a HTTP/1.1\r\nHost: vouch\r\nTransfer-Encoding: gzip\r\n\r\nabc" + behind,
                501, "the transfer coding 'gzip' is not supported; only chunked is"),
        Refused("an unknown coding before chunked", "POST /a HTTP/1.1\r\nHost: vouch\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n" + behind,
                501, "'gzip' is not supported"),
        Refused("chunked twice", "POST /a HTTP/1.1\r\nHost: vouch\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + behind,
                400, "chunked may be applied once"),
        Refused("chunked in HTTP/1.0", "POST /a HTTP/1.0\r\nHost: vouch\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + behind,
                400, "not part of HTTP/1.0"),
        Refused("250 query parameters", "GET /a?" + (0..<250).map { "p\($0)=1" }.joined(separator: "&") + " HTTP/1.1\r\nHost: vouch\r\n\r\n" + behind,
                414, "the query has 250 parameters; at most 100 are allowed"),
        Refused("a 9,000-byte target", "GET /a?q=" + String(repeating: "x", count: 8_995) + " HTTP/1.1\r\nHost: vouch\r\n\r\n" + behind,
                414, "is 9000 bytes; at most 8192 are allowed"),
        Refused("%00 in the path", "GET /v1/fixes/fix-a%00zzz HTTP/1.1\r\nHost: vouch\r\n\r\n" + behind, 400, "NUL byte"),
        Refused("%00 in the query", "GET /a?limit=5%005 HTTP/1.1\r\nHost: vouch\r\n\r\n" + behind, 400, "NUL byte"),
        Refused("a raw NUL in the path", Array("GET /a".utf8) + [0] + Array("zzz HTTP/1.1\r\nHost: vouch\r\n\r\n\(behind)".utf8), 400, "NUL byte"),
        Refused("a raw NUL in the query", Array("GET /a?limit=5".utf8) + [0] + Array("5 HTTP/1.1\r\nHost: vouch\r\n\r\n\(behind)".utf8), 400, "NUL byte"),
        // What libmicrohttpd would not dechunk, so it waited for the body until the body deadline.
        Refused("chunked and a space", "POST /a HTTP/1.1\r\nHost: vouch\r\nTransfer-Encoding: chunked \r\n\r\n0\r\n\r\n" + behind,
                400, "the only value allowed is chunked"),
        Refused("chunked and a tab", "POST /a HTTP/1.1\r\nHost: vouch\r\nTransfer-Encoding: chunked\t\r\n\r\n0\r\n\r\n" + behind,
                400, "the only value allowed is chunked"),
        Refused("chunked and a comma", "POST /a HTTP/1.1\r\nHost: vouch\r\nTransfer-Encoding: chunked,\r\n\r\n0\r\n\r\n" + behind,
                400, "the only value allowed is chunked"),
        Refused("an empty element before chunked", "POST /a HTTP/1.1\r\nHost: vouch\r\nTransfer-Encoding: ,chunked\r\n\r\n0\r\n\r\n" + behind,
                400, "the only value allowed is chunked"),
        Refused("chunked, chunked on one line", "POST /a HTTP/1.1\r\nHost: vouch\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n"
                    + behind, 400, "chunked may be applied once"),
        Refused("identity", "POST /a HTTP/1.1\r\nHost: vouch\r\nTransfer-Encoding: identity\r\n\r\nabc" + behind,
                501, "'identity' is not supported"),
        Refused("chunked then gzip", "POST /a HTTP/1.1\r\nHost: vouch\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n" + behind,
                501, "'gzip' is not supported"),
        Refused("chunked with a parameter", "POST /a HTTP/1.1\r\nHost: vouch\r\nTransfer-Encoding: chunked;q=1\r\n\r\n0\r\n\r\n" + behind,
                501, "'chunked;q=1' is not supported"),
        Refused("an empty Transfer-Encoding", "POST /a HTTP/1.1\r\nHost: vouch\r\nTransfer-Encoding: \r\n\r\n" + behind,
                400, "the only value allowed is chunked"),
        // RFC 9112 §5.1: whitespace between a field name and its colon; libmicrohttpd keeps it in the name.
        Refused("Content-Length, a space, the colon", "POST /a HTTP/1.1\r\nHost: vouch\r\nContent-Length : 2\r\n\r\nab" + behind,
                400, "the header field name 'Content-Length ' holds whitespace"),
        Refused("Transfer-Encoding, a space, the colon", "POST /a HTTP/1.1\r\nHost: vouch\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n"
                    + behind, 400, "the header field name 'Transfer-Encoding ' holds whitespace"),
        Refused("Content-Length, a tab, the colon", "POST /a HTTP/1.1\r\nHost: vouch\r\nContent-Length\t: 2\r\n\r\nab" + behind,
                400, "'Content-Length\\u{9}' holds whitespace"),
        Refused("Host, a space, the colon", "GET /a HTTP/1.1\r\nHost : vouch\r\n\r\n" + behind, 400, "'Host ' holds whitespace"),
        Refused("a space inside a name", "GET /a HTTP/1.1\r\nHost: vouch\r\nX Forwarded: 1\r\n\r\n" + behind, 400, "'X Forwarded' holds whitespace"),
        Refused("a long name ending in spaces", "GET /a HTTP/1.1\r\nHost: vouch\r\nX-A-Long-Header-Name-Of-Many-Words   : 1\r\n\r\n" + behind,
                400, "'X-A-Long-Header-Name-Of-Many-Words   ' holds whitespace"),
        Refused("a vertical tab in a name", "GET /a HTTP/1.1\r\nHost: vouch\r\nContent-Length\u{0B}: 0\r\n\r\n" + behind,
                400, "'Content-Length\\u{b}' holds whitespace"),
        Refused("a byte outside ASCII in a name", Array("GET /a HTTP/1.1\r\nHost: vouch\r\nContent-Length".utf8) + [0xC2, 0xA0]
                    + Array(": 0\r\n\r\n\(behind)".utf8), 400, "a byte outside ASCII"),
        Refused("DEL in a name", "GET /a HTTP/1.1\r\nHost: vouch\r\nContent-Length\u{7F}: 0\r\n\r\n" + behind, 400, "'Content-Length\\u{7f}' holds"),
        Refused("HTTP/1.1 without Host", "GET /a HTTP/1.1\r\n\r\n" + behind, 400, "an HTTP/1.1 request needs a Host header"),
        Refused("two Hosts", "GET /a HTTP/1.1\r\nHost: vouch\r\nHost: other\r\n\r\n" + behind, 400, "2 Host headers"),
        Refused("20 KiB of headers", "GET /a HTTP/1.1\r\nHost: vouch\r\nX-Padding: \(String(repeating: "a", count: 20 * 1_024))\r\n\r\n" + behind,
                431, "at most 16384 are allowed (http.max_header_bytes)"),
    ]

    @Test(arguments: refused)
    func isAnsweredWithAProblemAndTheConnectionClosed(_ request: Refused) throws {
        let (server, port, served) = try HTTPFramingTests.makeServer()
        defer { server.stop() }
        let started = ContinuousClock.now
        let (text, closed) = try HTTPFramingTests.exchange(request.raw, port: port)
        let elapsed = ContinuousClock.now - started
        #expect(closed, "the server closes the connection at once rather than waiting for more")
        // At once, not at a deadline: the header and body deadlines are 10 s, the client waits 5 s at most.
        #expect(elapsed < .seconds(1), "answered and closed after \(elapsed)")
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.first?.hasPrefix("HTTP/1.1 \(request.status) ") == true, "got \(text.prefix(200))")
        #expect(lines.contains("Content-Type: application/problem+json"))
        #expect(lines.contains("Connection: close"))
        #expect(lines.contains { $0.hasPrefix("X-Request-Id: ") && $0.count > 14 })
        let body = try JSONParser.parse(Array((text.components(separatedBy: "\r\n\r\n").dropFirst().first ?? "").utf8))
        #expect(body["status"]?.intValue == request.status)
        #expect(body["type"]?.stringValue?.hasPrefix("https://vouch.dev/problems/") == true)
        #expect(body["title"]?.stringValue?.isEmpty == false)
        #expect(body["detail"]?.stringValue?.contains(request.detail) == true, "detail: \(body["detail"]?.stringValue ?? "none")")
        #expect(text.components(separatedBy: "\r\nX-Request-Id: ").count == 2, "exactly one answer")
        #expect(served.all.isEmpty, "no request ran, neither the refused one nor the one behind it: \(served.all)")
        // The server goes on serving others.
        let next = try RawConnection(port: port)
        try next.send(HTTPFramingTests.behind)
        #expect(try next.readResponse()?.status == 200)
    }

    @Test func aRequestIDTheClientSentIsKeptOnARefusal() throws {
        let (server, port, _) = try HTTPFramingTests.makeServer()
        defer { server.stop() }
        let (text, _) = try HTTPFramingTests.exchange(Array("GET /a%00 HTTP/1.1\r\nHost: vouch\r\nX-Request-Id: lb-7f3a.2\r\n\r\n".utf8), port: port)
        #expect(text.components(separatedBy: "\r\n").contains("X-Request-Id: lb-7f3a.2"))
    }

    /// The controls: what is well framed still runs, pipelined requests included, so the refusals above are
    /// about the framing and not about pipelining, chunks or parameters as such.
    @Test func wellFramedRequestsStillRunPipelinedOrChunked() throws {
        let (server, port, served) = try HTTPFramingTests.makeServer()
        defer { server.stop() }
        let connection = try RawConnection(port: port)
        try connection.send("POST /one HTTP/1.1\r\nHost: vouch\r\nContent-Length: 3\r\n\r\nabc" + HTTPFramingTests.behind
                            + "POST /chunked HTTP/1.1\r\nHost: vouch\r\nTransfer-Encoding: Chunked\r\n\r\n3\r\nxyz\r\n2\r\n12\r\n0\r\n\r\n"
                            + "GET /a?" + (0..<100).map { "p\($0)=1" }.joined(separator: "&") + " HTTP/1.1\r\nHost: vouch\r\n\r\n")
        let (answers, closed) = connection.readUntilClosed(within: 1)
        #expect(answers.components(separatedBy: "HTTP/1.1 200 OK\r\n").count == 5, "four answers: \(answers)")
        #expect(answers.contains("ran /a with 100 parameters"))
        #expect(served.all == ["POST /one abc", "GET /pipelined ", "POST /chunked xyz12", "GET /a "])
        #expect(!closed, "a well-framed connection stays open")

        let legacy = try RawConnection(port: port)
        try legacy.send("GET /old HTTP/1.0\r\n\r\n")
        #expect(try legacy.readResponse()?.status == 200, "HTTP/1.0 needs no Host")
        let encodedPercent = try RawConnection(port: port)
        try encodedPercent.send("GET /a%2500 HTTP/1.1\r\nHost: vouch\r\n\r\n")
        #expect(try encodedPercent.readResponse()?.body == "ran /a%00 with 0 parameters", "%2500 is a percent sign and two zeros, not a NUL")
    }

    /// A folded line (obs-fold, RFC 9112 §5.2) is neither refused nor unfolded by libmicrohttpd 0.9.75: the folded
    /// header is dropped, so the server sees no `Transfer-Encoding` at all and reads no body; the chunks that follow
    /// are a malformed next request, refused, and the connection closes. Pinned here so a change of version shows.
    @Test func aFoldedTransferEncodingIsDroppedAndWhatFollowsIsNotRun() throws {
        let (server, port, served) = try HTTPFramingTests.makeServer()
        defer { server.stop() }
        let started = ContinuousClock.now
        let (answers, closed) = try HTTPFramingTests.exchange(Array(("POST /folded HTTP/1.1\r\nHost: vouch\r\nTransfer-Encoding:\r\n chunked\r\n\r\n"
            + "3\r\nxyz\r\n0\r\n\r\n" + HTTPFramingTests.behind).utf8), port: port)
        #expect(closed && ContinuousClock.now - started < .seconds(1))
        #expect(answers.components(separatedBy: "HTTP/1.1 200 OK\r\n").count == 2, "one answer: \(answers)")
        #expect(served.all == ["POST /folded "], "no body, and nothing behind it ran")
    }

    /// The path and query arguments are percent-decoded by libmicrohttpd's own function, which the server skips for
    /// text without a `%` (`vouch_mhd_unescape`): with or without escapes, in the path, a key or a value, the
    /// handler sees the same decoded text (a `+` stays in the path and is a space in a query value, as libmicrohttpd
    /// parses arguments before it decodes them).
    @Test(arguments: [
        ("/plain/path?a=1&b=two", "/plain/path a=1 b=two"),
        ("/p%41th/%2F?q=a%20b&r=plain&%6Bey=v", "/pAth// key=v q=a b r=plain"),
        ("/a+b?c=d+e", "/a+b c=d e"),
        ("/bad%zz%4?x=%g1", "/bad%zz%4 x=%g1"),
        ("/only%25percent", "/only%percent"),
    ])
    func pathAndQueryAreDecodedTheSameWithOrWithoutEscapes(target: String, expected: String) throws {
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threadCount: 1)) { request in
            .text(([request.path] + request.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " "))
        }
        let port = try server.start()
        defer { server.stop() }
        let connection = try RawConnection(port: port)
        try connection.send("GET \(target) HTTP/1.1\r\nHost: vouch\r\n\r\n")
        let body = try connection.readResponse()?.body
        #expect(body == expected, "answered \(body ?? "nothing")")
    }

    /// What libmicrohttpd 0.9.75 answers itself, before any callback of the server runs (see `HTTPServer`):
    /// not a problem document, but still refused, closed, and nothing behind it runs.
    @Test(arguments: [
        "POST /a HTTP/1.1\r\nHost: vouch\r\nContent-Length: 1x\r\n\r\nab",
        "POST /a HTTP/1.1\r\nHost: vouch\r\nContent-Length: 2, 2\r\n\r\nab",
        "POST /a HTTP/1.1\r\nHost: vouch\r\nContent-Length: -1\r\n\r\nab",
    ])
    func aContentLengthThatIsNotANumberIsRefusedByLibmicrohttpd(_ raw: String) throws {
        let (server, port, served) = try HTTPFramingTests.makeServer()
        defer { server.stop() }
        let (text, closed) = try HTTPFramingTests.exchange(Array((raw + HTTPFramingTests.behind).utf8), port: port)
        #expect(text.hasPrefix("HTTP/1.1 400 "))
        #expect(closed)
        #expect(served.all.isEmpty)
    }
}
