import Foundation
import Synchronization
import Testing
@testable import VouchHTTP
import VouchTestSupport

/// Clients that send a byte now and then, or nothing at all: each is cut off by a deadline, and the server
/// keeps answering others even when they fill it. Deadlines here are a second, so the tests run in seconds.
@Suite struct SlowClientTests {
    static let deadlines = ConnectionDeadlines(headerMilliseconds: 1_000, bodyMilliseconds: 1_000, bodyMinBytesPerSecond: 100)

    /// A server whose every route answers 200; its own silence timeout (30 s) is far longer than any test.
    static func makeServer(limit: Int = 64, perAddress: Int = 16) throws -> (HTTPServer, UInt16) {
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threadCount: 2, connectionTimeoutSeconds: 30, connectionLimit: limit,
                                                     connectionLimitPerAddress: perAddress, deadlines: deadlines)) { _ in .text("ok") }
        return (server, try server.start())
    }

    /// Sends `pieces` one by one, `interval` apart, while the server keeps the connection; the seconds the
    /// connection lasted, or nil when every piece was sent and it is still open.
    static func trickle(_ connection: RawConnection, _ pieces: [String], interval: Double) -> Double? {
        let started = Date()
        for piece in pieces {
            if (try? connection.send(piece)) == nil || connection.isClosedNow { return Date().timeIntervalSince(started) }
            Thread.sleep(forTimeInterval: interval)
        }
        return connection.isClosedNow ? Date().timeIntervalSince(started) : nil
    }

    @Test func headersTrickledAByteAtATimeAreCutAtTheHeaderDeadline() throws {
        let (server, port) = try SlowClientTests.makeServer()
        defer { server.stop() }
        // A byte every 0.2 s never lets libmicrohttpd's silence timeout fire; the header deadline does.
        let slow = try RawConnection(port: port)
        try slow.send("GET /slow HTTP/1.1\r\nHost: vouch\r\nX-Slow: ")
        let lasted = SlowClientTests.trickle(slow, Array(repeating: "a", count: 40), interval: 0.2)
        #expect(lasted != nil, "still open after 8 s of trickling")
        #expect(server.cutConnections.headerDeadline == 1)
        // The control: the same trickle that completes its headers within the deadline is answered.
        let patient = try RawConnection(port: port)
        #expect(SlowClientTests.trickle(patient, ["GET /patient HTTP/1.1\r\n", "Host: vouch\r\n", "X-Slow: a\r\n", "\r\n"], interval: 0.15) == nil)
        #expect(try patient.readResponse()?.status == 200)
    }

    @Test func anIdleKeptAliveConnectionIsClosedOnceTheHeaderDeadlinePassesAfterItsLastAnswer() throws {
        let (server, port) = try SlowClientTests.makeServer()
        defer { server.stop() }
        let connection = try RawConnection(port: port)
        // 0.6 s idle after connecting, then a request: within the deadline, so it is served...
        Thread.sleep(forTimeInterval: 0.6)
        try connection.send("GET /first HTTP/1.1\r\nHost: vouch\r\n\r\n")
        #expect(try connection.readResponse()?.status == 200)
        // ...and the deadline starts again from that answer, not from the connection's start.
        Thread.sleep(forTimeInterval: 0.6)
        try connection.send("GET /second HTTP/1.1\r\nHost: vouch\r\n\r\n")
        #expect(try connection.readResponse()?.status == 200)
        #expect(connection.isClosedByServer(within: 4), "an idle kept-alive connection is closed after the header deadline")
        #expect(server.cutConnections.headerDeadline == 1)
    }

    @Test func aBodySlowerThanTheMinimumRateIsCutAndAFastEnoughOneIsServed() throws {
        let (server, port) = try SlowClientTests.makeServer()
        defer { server.stop() }
        let slow = try RawConnection(port: port)
        try slow.send("POST /upload HTTP/1.1\r\nHost: vouch\r\nContent-Length: 1000\r\n\r\n")
        #expect(SlowClientTests.trickle(slow, Array(repeating: "b", count: 40), interval: 0.2) != nil, "still open after 8 s of one byte each 0.2 s")
        #expect(server.cutConnections.bodyRate == 1)
        // 60 bytes each 0.2 s is 300 bytes a second, over the 100 allowed: the body takes 1 s and is answered.
        let steady = try RawConnection(port: port)
        try steady.send("POST /upload HTTP/1.1\r\nHost: vouch\r\nContent-Length: 300\r\n\r\n")
        #expect(SlowClientTests.trickle(steady, Array(repeating: String(repeating: "c", count: 60), count: 5), interval: 0.2) == nil)
        #expect(try steady.readResponse()?.status == 200)
        #expect(server.cutConnections.bodyRate == 1)
    }

    @Test func theDeadlineThreadRunsNoRoundOnceStopped() throws {
        let reaper = ConnectionReaper(intervalMilliseconds: 5)
        let rounds = Atomic<Int>(0)
        reaper.start {
            rounds.add(1, ordering: .relaxed)
            return nil
        }
        for _ in 0..<400 where rounds.load(ordering: .relaxed) < 3 { Thread.sleep(forTimeInterval: 0.01) }
        #expect(rounds.load(ordering: .relaxed) >= 3)
        reaper.stop()
        let afterStop = rounds.load(ordering: .relaxed)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(rounds.load(ordering: .relaxed) == afterStop, "no round runs once stop has returned")
        reaper.stop()
    }
}
