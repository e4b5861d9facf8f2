import Foundation
import Synchronization
import Testing
@testable import VouchHTTP

/// `.stream` replies: chunks sent whenever the application likes, a client that leaves or does not read, and many
/// streams at once on one server.
@Suite struct HTTPStreamTests {
    /// `/events` opens a stream on the board (sending `first` before the handler returns); other paths answer "plain".
    static func makeServer(board: StreamBoard, first: String? = nil, configure: (inout HTTPServer.Configuration) -> Void = { _ in })
        throws -> (HTTPServer, UInt16) {
        var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0, threadCount: 2)
        configure(&configuration)
        let server = HTTPServer(configuration: configuration) { request in
            request.path == "/events" ? board.open(first: first) : .now(.text("plain"))
        }
        return (server, try server.start())
    }

    /// A server with one stream open: its client has read the head, and the stream is the board's first.
    final class OneStream {
        let board = StreamBoard()
        let server: HTTPServer
        let client: StreamingClient
        let head: (status: Int, headers: [String: String])
        let stream: HTTPStream

        init(first: String? = nil, version: String = "HTTP/1.1", headers: [String] = [],
             configure: (inout HTTPServer.Configuration) -> Void = { _ in }) throws {
            let (server, port) = try HTTPStreamTests.makeServer(board: board, first: first, configure: configure)
            self.server = server
            client = try StreamingClient(port: port)
            try client.get("/events", version: version, headers: headers)
            head = try client.readHead()
            stream = try #require(board.streams(1)?.first)
        }

        deinit {
            server.stop()
        }
    }

    @Test func bytesSentNowLaterAndMuchLaterArriveInOrderAsChunksThenFinishEndsTheBody() throws {
        // Deadlines far shorter than the stream's silences: a streaming connection is never cut by them.
        let deadlines = ConnectionDeadlines(headerMilliseconds: 100, bodyMilliseconds: 100, bodyMinBytesPerSecond: 100)
        let one = try OneStream(first: "data: now\n\n", headers: ["X-Request-Id: stream-1"]) { $0.deadlines = deadlines }
        let (server, client, stream, head, board) = (one.server, one.client, one.stream, one.head, one.board)
        #expect(head.status == 200)
        #expect(head.headers["content-type"] == "text/event-stream")
        #expect(head.headers["transfer-encoding"]?.lowercased() == "chunked")
        #expect(head.headers["content-length"] == nil)
        #expect(head.headers["x-request-id"] == "stream-1")
        #expect(try client.readChunk() == Array("data: now\n\n".utf8))
        #expect(server.openStreams == 1)

        Thread.sleep(forTimeInterval: 0.2)
        #expect(stream.send(Array("data: 200ms\n\n".utf8)))
        #expect(try client.readChunk() == Array("data: 200ms\n\n".utf8))
        Thread.sleep(forTimeInterval: 1)
        #expect(stream.send(Array("data: 1s\n\n".utf8)))
        #expect(stream.send(Array("data: and more\n\n".utf8)))
        #expect(try client.readChunkedData(count: 25) == Array("data: 1s\n\ndata: and more\n\n".utf8))
        #expect(server.cutConnections.headerDeadline == 0 && server.cutConnections.shed == 0)

        stream.finish()
        #expect(try client.readChunk() == [], "the last chunk ends the body")
        #expect(!stream.isOpen && !stream.send([1]))
        #expect(board.closedCount == 1)
        #expect(server.openStreams == 0)
        // The connection is kept alive for the next request.
        try client.get("/plain")
        let next = try client.readHead()
        #expect(next.status == 200)
        #expect(try client.read(count: Int(next.headers["content-length"] ?? "0") ?? 0) == Array("plain".utf8))
    }

    @Test func aStreamFinishedBeforeTheHandlerReturnsSendsWhatItHadThenEnds() throws {
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threadCount: 1)) { _ in
            let stream = HTTPStream()
            stream.send(Array("only event".utf8))
            stream.finish()
            return .stream(StreamBoard.head, stream)
        }
        let port = try server.start()
        defer { server.stop() }
        let client = try StreamingClient(port: port)
        try client.get("/events")
        #expect(try client.readHead().status == 200)
        #expect(try client.readChunkedData(count: 10) == Array("only event".utf8))
        #expect(try client.readChunk() == [])
    }

    @Test func aClientThatLeavesIsNoticedAtTheNextSend() throws {
        let one = try OneStream()
        let (server, stream, board) = (one.server, one.stream, one.board)
        #expect(one.head.status == 200)
        // The client leaves: its FIN, as a close would send (the descriptor itself is closed with the connection object).
        shutdown(one.client.connection.descriptor, Int32(SHUT_RDWR))
        Thread.sleep(forTimeInterval: 0.1)
        #expect(board.closedCount == 0, "a parked connection is not watched")
        stream.send(Array("anyone there?".utf8))
        #expect(board.waitUntilClosed(1), "onClose runs after that one send, with no other")
        #expect(!stream.send(Array("gone".utf8)))
        #expect(!stream.isOpen)
        #expect(server.openStreams == 0)
        #expect(StreamBoard.poll(5) { server.openConnections == 0 })
    }

    @Test func aHeadRequestGetsTheHeadAloneAndItsStreamEndsAtOnce() throws {
        let board = StreamBoard()
        let (server, port) = try HTTPStreamTests.makeServer(board: board, first: "never sent")
        defer { server.stop() }
        let client = try StreamingClient(port: port)
        try client.get("/events", method: "HEAD")
        let head = try client.readHead()
        #expect(head.status == 200 && head.headers["content-type"] == "text/event-stream")
        #expect(board.closedCount == 1)
        // Nothing follows the head: the next answer on the connection starts right after it.
        try client.get("/plain")
        #expect(try client.readHead().status == 200)
    }

    @Test func anHTTP10ClientGetsTheBytesUnchunkedUntilTheConnectionCloses() throws {
        let one = try OneStream(first: "one ", version: "HTTP/1.0")
        let (client, stream) = (one.client, one.stream)
        #expect(one.head.status == 200 && one.head.headers["transfer-encoding"] == nil)
        #expect(try client.read(count: 4) == Array("one ".utf8))
        stream.send(Array("two".utf8))
        #expect(try client.read(count: 3) == Array("two".utf8))
        stream.finish()
        #expect(client.connection.isClosedByServer(within: 5))
    }

    @Test func aThousandStreamsEachReceiveOneSend() throws {
        let board = StreamBoard()
        let count = 1_000
        let (server, port) = try HTTPStreamTests.makeServer(board: board) { $0.connectionLimitPerAddress = 2 * count }
        var clients: [StreamingClient] = []
        for _ in 0..<count {
            let client = try StreamingClient(port: port)
            try client.get("/events")
            clients.append(client)
        }
        for client in clients { #expect(try client.readHead().status == 200) }
        let streams = try #require(board.streams(count))
        #expect(server.openStreams == count)

        let event = Array("data: {\"flag\":\"tv-channel-selector-labels\",\"variant\":\"on\",\"revision\":42,\"reason\":\"TARGETING_MATCH\"}\n\n".utf8)
            + Array(repeating: UInt8(ascii: " "), count: 50)
        let started = DispatchTime.now().uptimeNanoseconds
        for stream in streams { #expect(stream.send(event)) }
        let sent = DispatchTime.now().uptimeNanoseconds
        var received = 0
        for client in clients {
            if try client.readChunkedData(count: event.count) == event { received += 1 }
        }
        let done = DispatchTime.now().uptimeNanoseconds
        #expect(received == count)
        print("\(count) streams, one \(event.count)-byte send each: sends took \((sent - started) / 1_000) µs, all received after \((done - started) / 1_000) µs")

        server.quiesce()
        #expect(board.closedCount == count, "quiesce finished every stream")
        #expect(server.drain(timeoutSeconds: 10), "the streams' requests completed")
        server.stop()
        #expect(server.openStreams == 0)
    }

    @Test func aClientThatNeverReadsHasItsStreamEndedWithBoundedMemory() throws {
        let one = try OneStream()
        let (server, client, stream, board) = (one.server, one.client, one.stream, one.board)
        // Up to 16 MiB, a little at a time, so the server writes what the kernel will take before its queue fills.
        let piece = [UInt8](repeating: UInt8(ascii: "x"), count: 16 * 1_024)
        var accepted = 0
        var largestQueue = 0
        for _ in 0..<1_024 {
            guard stream.send(piece) else { break }
            accepted += piece.count
            largestQueue = max(largestQueue, stream.queuedBytes)
            usleep(500)
        }
        print("a client that never reads: \(accepted / 1_024) KiB accepted before its stream was ended; largest queue \(largestQueue / 1_024) KiB")
        #expect(!stream.isOpen)
        #expect(largestQueue <= HTTPStream.maxQueuedBytes)
        #expect(accepted < 2 * 1_024 * 1_024, "the kernel and the queue together hold little for one client")
        #expect(board.closedCount == 1)
        #expect(server.cutConnections.slowStreams == 1)
        #expect(stream.queuedBytes == 0, "what was queued is dropped")
        #expect(client.connection.readUntilClosed(within: 5).closed, "the server closed the connection")
    }

    @Test func sendsFromManyThreadsWhileTheClientReadsLoseNothing() throws {
        let one = try OneStream()
        let (client, stream) = (one.client, one.stream)
        let senders = 4
        let perSender = 1_000
        let refused = Atomic<Int>(0)
        // Each sender's messages are 8 bytes: its number and a counter, so order per sender can be checked. 32 KB in
        // all, under the queue's limit even if the reader fell behind; the pauses let the reader park and be woken often.
        DispatchQueue.concurrentPerform(iterations: senders) { sender in
            for index in 0..<perSender {
                var message = [UInt8](repeating: 0, count: 8)
                message[0] = UInt8(sender)
                withUnsafeBytes(of: UInt32(index).littleEndian) { message.replaceSubrange(4..<8, with: $0) }
                if !stream.send(message) { refused.add(1, ordering: .relaxed) }
                if index.isMultiple(of: 50) { usleep(200) }
            }
        }
        #expect(refused.load(ordering: .relaxed) == 0)
        stream.finish()
        var next = [Int](repeating: 0, count: senders)
        var data: [UInt8] = []
        while true {
            let chunk = try client.readChunk()
            if chunk.isEmpty { break }
            data += chunk
        }
        #expect(data.count == senders * perSender * 8)
        for offset in stride(from: 0, to: data.count, by: 8) {
            let sender = Int(data[offset])
            let index = Int(UInt32(data[offset + 4]) | UInt32(data[offset + 5]) << 8 | UInt32(data[offset + 6]) << 16 | UInt32(data[offset + 7]) << 24)
            #expect(index == next[sender])
            next[sender] = index + 1
        }
        #expect(next == Array(repeating: perSender, count: senders))
    }
}
