import Foundation
import Testing
import VouchHTTP
import VouchTestSupport

/// The HTTP layer under hostile clients: slow senders, too many connections, oversized headers.
@Suite struct HTTPAbuseTests {
    /// A server whose every route answers 200 "ok", with tight limits so the tests run in seconds.
    func makeServer(timeoutSeconds: Int = 1, limit: Int = 64, perAddress: Int = 8) throws -> (HTTPServer, UInt16) {
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threadCount: 2, maxBodyBytes: 1_024,
                                                     connectionTimeoutSeconds: timeoutSeconds, connectionLimit: limit,
                                                     connectionLimitPerAddress: perAddress)) { _ in .text("ok") }
        return (server, try server.start())
    }

    func quickGet(port: UInt16, from source: String) throws -> (status: Int, seconds: Double) {
        let started = Date()
        let connection = try RawConnection(port: port, sourceAddress: source)
        try connection.send("GET /ping HTTP/1.1\r\nHost: vouch\r\n\r\n")
        let status = try connection.readResponse()?.status ?? 0
        return (status, Date().timeIntervalSince(started))
    }

    @Test func slowClientsCannotStopOthersAndAreCutOffWhenIdle() throws {
        // A 3 s idle timeout, not 1 s: on a loaded machine the slow connections must not be freed before the ninth arrives.
        let (server, port) = try makeServer(timeoutSeconds: 3)
        defer { server.stop() }
        // Eight slowloris connections from one address: each sends part of a request line and headers, then trickles.
        var slow: [RawConnection] = []
        for _ in 0..<8 {
            let connection = try RawConnection(port: port, sourceAddress: "127.0.0.1")
            try connection.send("GET /slow HTTP/1.1\r\nHost: vouch\r\nX-Slow: ")
            slow.append(connection)
        }
        // The ninth connects only once the server has taken all eight, so the kernel's accept order cannot let it in first.
        #expect(StreamBoard.poll(5) { server.openConnections == 8 })
        // A ninth connection from the same address is over its limit: closed without an answer.
        let ninth = try RawConnection(port: port, sourceAddress: "127.0.0.1")
        try? ninth.send("GET /ping HTTP/1.1\r\nHost: vouch\r\n\r\n")
        #expect(ninth.isClosedByServer(within: 2))
        // Meanwhile other clients are served at once, several times over, while the slow ones keep trickling.
        var served = 0
        for round in 0..<5 {
            for connection in slow { try? connection.send("a") }
            let answer = try quickGet(port: port, from: "127.0.0.\(2 + round)")
            #expect(answer.status == 200)
            #expect(answer.seconds < 0.5)
            if answer.status == 200 { served += 1 }
        }
        #expect(served == 5)
        // Once they stop sending, the connection timeout (3 s here, http.connection_timeout) frees them.
        for connection in slow {
            #expect(connection.isClosedByServer(within: 6))
        }
        #expect(try quickGet(port: port, from: "127.0.0.1").status == 200)
    }

    /// Four connections from four addresses, each sending `holding` and no more, then a fifth client's request.
    func fillThenAsk(port: UInt16, holding: String, timeoutSeconds: Int) throws -> (held: [RawConnection], fifth: RawConnection) {
        var held: [RawConnection] = []
        for index in 0..<4 {
            let connection = try RawConnection(port: port, sourceAddress: "127.0.1.\(index + 1)")
            try connection.send(holding)
            held.append(connection)
        }
        let fifth = try RawConnection(port: port, sourceAddress: "127.0.1.9", timeoutSeconds: timeoutSeconds)
        try fifth.send("GET /ping HTTP/1.1\r\nHost: vouch\r\n\r\n")
        return (held, fifth)
    }

    @Test func theConnectionCapHoldsAcrossAddresses() throws {
        let (server, port) = try makeServer(timeoutSeconds: 5, limit: 4, perAddress: 4)
        defer { server.stop() }
        // Connections busy with a request are never shed to make room: here each is halfway through a body.
        var (held, fifth) = try fillThenAsk(port: port, holding: "POST /held HTTP/1.1\r\nHost: vouch\r\nContent-Length: 10\r\n\r\nhalf",
                                            timeoutSeconds: 1)
        // At the cap libmicrohttpd stops accepting: the fifth client waits in the kernel's backlog, unanswered.
        #expect(throws: RawConnection.Failure.self) { _ = try fifth.readResponse() }
        // A held connection closing gives its place back, and the waiting client is answered.
        held.removeFirst()
        var timeout = timeval(tv_sec: 3, tv_usec: 0)
        setsockopt(fifth.descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #expect(try fifth.readResponse()?.status == 200)
    }

    @Test func connectionsWaitingForARequestAreShedAtTheCapSoANewClientGetsIn() throws {
        let (server, port) = try makeServer(timeoutSeconds: 30, limit: 4, perAddress: 4)
        defer { server.stop() }
        // Four connections that never finish their headers: before, the fifth client waited until they timed out.
        let (held, fifth) = try fillThenAsk(port: port, holding: "GET /held HTTP/1.1\r\n", timeoutSeconds: 3)
        #expect(try fifth.readResponse()?.status == 200)
        #expect(held[0].isClosedByServer(within: 1), "the longest-waiting connection went first")
        #expect(server.cutConnections.shed >= 1)
    }

    @Test func headersLargerThanTheConnectionMemoryAreRefused() throws {
        let (server, port) = try makeServer()
        defer { server.stop() }
        // 32 KiB is past the connection's memory, where libmicrohttpd answers itself (`HTTPServer` lists when);
        // HTTPFramingTests covers the server's own 431 between the 16 KiB limit and that.
        let connection = try RawConnection(port: port)
        try connection.send("GET /ping HTTP/1.1\r\nHost: vouch\r\nX-Padding: \(String(repeating: "a", count: 32 * 1_024))\r\n\r\n")
        let answer = try connection.readResponse()
        #expect(answer?.status == 431)
        // The server goes on serving.
        #expect(try quickGet(port: port, from: "127.0.0.1").status == 200)
    }
}
