import Foundation
import Testing
import VouchHTTP

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
        let (server, port) = try makeServer()
        defer { server.stop() }
        // Eight slowloris connections from one address: each sends part of a request line and headers, then trickles.
        var slow: [RawConnection] = []
        for _ in 0..<8 {
            let connection = try RawConnection(port: port, sourceAddress: "127.0.0.1")
            try connection.send("GET /slow HTTP/1.1\r\nHost: vouch\r\nX-Slow: ")
            slow.append(connection)
        }
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
        // Once they stop sending, the connection timeout (1 s here, http.connection_timeout) frees them.
        for connection in slow {
            #expect(connection.isClosedByServer(within: 4))
        }
        #expect(try quickGet(port: port, from: "127.0.0.1").status == 200)
    }

    @Test func theConnectionCapHoldsAcrossAddresses() throws {
        let (server, port) = try makeServer(timeoutSeconds: 5, limit: 4, perAddress: 4)
        defer { server.stop() }
        var held: [RawConnection] = []
        for index in 0..<4 {
            let connection = try RawConnection(port: port, sourceAddress: "127.0.1.\(index + 1)")
            try connection.send("GET /held HTTP/1.1\r\n")
            held.append(connection)
        }
        // At the cap libmicrohttpd stops accepting: a fifth client waits in the kernel's backlog, unanswered.
        let fifth = try RawConnection(port: port, sourceAddress: "127.0.1.9", timeoutSeconds: 1)
        try fifth.send("GET /ping HTTP/1.1\r\nHost: vouch\r\n\r\n")
        #expect(throws: RawConnection.Failure.self) { _ = try fifth.readResponse() }
        // A held connection closing gives its place back, and the waiting client is answered.
        held.removeFirst()
        var timeout = timeval(tv_sec: 3, tv_usec: 0)
        setsockopt(fifth.descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #expect(try fifth.readResponse()?.status == 200)
    }

    @Test func headersLargerThanTheConnectionMemoryAreRefused() throws {
        let (server, port) = try makeServer()
        defer { server.stop() }
        let connection = try RawConnection(port: port)
        try connection.send("GET /ping HTTP/1.1\r\nHost: vouch\r\nX-Padding: \(String(repeating: "a", count: 32 * 1_024))\r\n\r\n")
        let answer = try connection.readResponse()
        #expect(answer?.status == 431)
        // The server goes on serving.
        #expect(try quickGet(port: port, from: "127.0.0.1").status == 200)
    }
}
