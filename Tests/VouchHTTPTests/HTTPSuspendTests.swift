import Foundation
import Synchronization
import Testing
import VouchHTTP
import VouchTestSupport

/// `.later` replies: the connection is suspended while the answer is made elsewhere, so the server's threads keep
/// answering others; and the server's stop, which must answer or end whatever is still waiting.
@Suite struct HTTPSuspendTests {
    /// Completions a test handed out and has not completed, so it can complete them when it likes.
    final class Pending: Sendable {
        let completions = Mutex<[HTTPCompletion]>([])

        func hold(_ completion: HTTPCompletion) {
            completions.withLock { $0.append(completion) }
        }
    }

    static func makeServer(threadCount: Int = 2, handler: @escaping HTTPServer.Handler) throws -> (HTTPServer, UInt16) {
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threadCount: threadCount), handler: handler)
        return (server, try server.start())
    }

    static func request(_ path: String) -> String {
        "GET \(path) HTTP/1.1\r\nHost: vouch\r\n\r\n"
    }

    @Test func aRequestWaitingForItsAnswerDoesNotDelayOthersOnTheServersOnlyThread() throws {
        let (server, port) = try HTTPSuspendTests.makeServer(threadCount: 1) { request in
            guard request.path == "/slow" else { return .now(.text("quick")) }
            return .later { completion in
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { completion.complete(.text("late")) }
            }
        }
        defer { server.stop() }
        let slow = try RawConnection(port: port)
        let started = Date()
        try slow.send(HTTPSuspendTests.request("/slow"))
        #expect(StreamBoard.poll(5) { server.pendingReplies == 1 })

        var latencies: [Double] = []
        for index in 0..<20 {
            let sent = Date()
            let quick = try RawConnection(port: port)
            try quick.send(HTTPSuspendTests.request("/quick/\(index)"))
            let answer = try #require(try quick.readResponse())
            latencies.append(Date().timeIntervalSince(sent))
            #expect(answer.status == 200 && answer.body == "quick")
        }
        let late = try #require(try slow.readResponse())
        let waited = Date().timeIntervalSince(started)
        #expect(late.status == 200 && late.body == "late")
        #expect(late.headers["x-request-id"]?.isEmpty == false, "a late answer carries its id like any other")
        #expect(waited >= 0.45)
        latencies.sort()
        let p99 = latencies[Int((Double(latencies.count) * 0.99).rounded(.up)) - 1]
        print("quick requests while one waited: p50 \(Int(latencies[latencies.count / 2] * 1_000_000)) µs, p99 \(Int(p99 * 1_000_000)) µs; the waiting one answered after \(Int(waited * 1_000)) ms")
        #expect(p99 < 0.1, "p99 \(p99) s: a quick request waited behind the slow one")
        #expect(server.pendingReplies == 0)
    }

    @Test(arguments: ["Content-Length: 11\r\n\r\nhello world", "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"])
    func aLaterAnswerSeesTheWholeBody(framing: String) throws {
        let (server, port) = try HTTPSuspendTests.makeServer { request in
            let body = request.body
            return .later { completion in
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) {
                    completion.complete(.text("got \(String(decoding: body, as: UTF8.self))", status: 201))
                }
            }
        }
        defer { server.stop() }
        let connection = try RawConnection(port: port)
        for _ in 0..<2 {
            try connection.send("POST /echo HTTP/1.1\r\nHost: vouch\r\nX-Request-Id: posted-1\r\n" + framing)
            let answer = try #require(try connection.readResponse())
            #expect(answer.status == 201)
            #expect(answer.body == "got hello world")
            #expect(answer.headers["x-request-id"] == "posted-1")
            #expect(answer.headers["connection"]?.lowercased() != "close", "kept alive: the second request goes on the same connection")
        }
    }

    @Test func aCompletionCalledInsideTheClosureAnswersAndOnlyTheFirstCallCounts() throws {
        let (server, port) = try HTTPSuspendTests.makeServer { request in
            let path = request.path
            return .later { completion in
                completion.complete(.text("first \(path)"))
                completion.complete(.text("second \(path)", status: 500))
            }
        }
        defer { server.stop() }
        let connection = try RawConnection(port: port)
        for index in 0..<100 {
            try connection.send("GET /sync/\(index) HTTP/1.1\r\nHost: vouch\r\nX-Request-Id: sync-\(index)\r\n\r\n")
            let answer = try #require(try connection.readResponse())
            #expect(answer.status == 200 && answer.body == "first /sync/\(index)")
            #expect(answer.headers["x-request-id"] == "sync-\(index)")
        }
        #expect(server.pendingReplies == 0)
    }

    @Test func aCompletionMadeWithoutAServerDeliversItsFirstResponseOnce() {
        let delivered = Mutex<[Int]>([])
        let completion = HTTPCompletion { response in delivered.withLock { $0.append(response.status) } }
        completion.complete(.empty(204))
        completion.complete(.empty(500))
        #expect(delivered.withLock { $0 } == [204])
    }

    @Test func stoppingAnswersThePendingRequest503AndEndsEveryStreamPromptly() throws {
        let board = StreamBoard()
        let pending = Pending()
        let (server, port) = try HTTPSuspendTests.makeServer { request in
            if request.path == "/events" { return board.open(first: "hello") }
            return .later { pending.hold($0) }
        }
        var clients: [StreamingClient] = []
        for _ in 0..<3 {
            let client = try StreamingClient(port: port)
            try client.get("/events")
            #expect(try client.readHead().status == 200)
            #expect(try client.readChunkedData(count: 5) == Array("hello".utf8))
            clients.append(client)
        }
        let waiting = try RawConnection(port: port)
        try waiting.send(HTTPSuspendTests.request("/never"))
        #expect(StreamBoard.poll(5) { server.pendingReplies == 1 })
        #expect(server.openStreams == 3)

        let started = Date()
        server.quiesce()
        for client in clients { #expect(try client.readChunk() == [], "quiesce finishes every open stream") }
        #expect(server.openStreams == 0)
        #expect(!server.drain(timeoutSeconds: 0.3), "the pending request is still in flight")
        server.stop()
        let elapsed = Date().timeIntervalSince(started)
        let answer = try #require(try waiting.readResponse())
        #expect(answer.status == 503)
        #expect(answer.body.contains("the server is stopping"))
        #expect(board.closedCount == 3)
        #expect(server.pendingReplies == 0)
        #expect(elapsed < 2, "quiesce, drain (0.3 s) and stop took \(elapsed) s")
        // The work that was to complete it comes back after the stop: ignored, nothing is touched.
        for completion in pending.completions.withLock({ $0 }) { completion.complete(.text("too late")) }
    }

    @Test func stopWithoutQuiesceResumesParkedStreamsAndWaitingRequests() throws {
        let board = StreamBoard()
        let pending = Pending()
        let (server, port) = try HTTPSuspendTests.makeServer { request in
            request.path == "/events" ? board.open() : .later { pending.hold($0) }
        }
        var clients: [StreamingClient] = []
        for index in 0..<10 {
            let client = try StreamingClient(port: port)
            try client.get(index.isMultiple(of: 2) ? "/events" : "/wait")
            clients.append(client)
        }
        #expect(board.streams(5) != nil)
        #expect(StreamBoard.poll(5) { server.pendingReplies == 5 })
        let started = Date()
        server.stop()
        #expect(Date().timeIntervalSince(started) < 2)
        #expect(board.closedCount == 5, "every stream's onClose ran before stop returned")
        for (index, client) in clients.enumerated() where !index.isMultiple(of: 2) {
            #expect(try client.readHead().status == 503)
        }
        #expect(server.openStreams == 0 && server.pendingReplies == 0)
    }
}
