import Foundation
import Testing
@testable import VouchHTTP
import VouchTestSupport

/// OFREP through the whole application while slow and idle clients fill the HTTP server.
@Suite struct SlowClientOFREPTests {
    static let deadlines = ConnectionDeadlines(headerMilliseconds: 1_000, bodyMilliseconds: 1_000, bodyMinBytesPerSecond: 100)

    /// The issue's attack at test scale: 8 addresses each hold as many connections as they may (more in all
    /// than the server's cap), idle, trickling headers or trickling a body, and reconnect whenever one is
    /// closed. A well-behaved OFREP client on its own address must still get every answer, p99 under 100 ms.
    @Test func ofrepIsAnsweredWhileSlowAndIdleClientsHoldMoreThanTheCap() throws {
        let http = HTTPServer.Configuration(threadCount: 2, connectionLimit: 64, connectionLimitPerAddress: 16, deadlines: SlowClientOFREPTests.deadlines)
        let live = try InProcessServer(http: http)
        try live.createChannelSelectorFix()
        let sdk = try live.token(role: "sdk")
        let attack = SlowClientAttack(port: live.port, addresses: (2...9).map { "127.0.0.\($0)" }, connectionsPerAddress: 20,
                                      tickSeconds: 0.1, trickleSeconds: 0.5)
        attack.start()
        defer { attack.stop() }
        // Until the attackers hold more than the shedding threshold (seven eighths of the cap).
        var peak = 0
        for _ in 0..<300 where peak < 56 {
            peak = max(peak, live.server.openConnections)
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(peak >= 56, "the attack did not reach the cap: \(peak) connections open at most")

        let body = #"{"context":{"targetingKey":"user-1"}}"#
        let request = "POST /ofrep/v1/evaluate/flags/tv-channel-selector-labels HTTP/1.1\r\nHost: vouch\r\nAuthorization: Bearer \(sdk)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
        var seconds: [Double] = []
        var answered = 0
        // Bounded, so a server that answers nothing fails the test in 20 s rather than 100 probe timeouts.
        let probesEnd = Date().addingTimeInterval(20)
        for _ in 0..<100 where Date() < probesEnd {
            peak = max(peak, live.server.openConnections)
            let started = Date()
            if let connection = try? RawConnection(port: live.port, timeoutSeconds: 2), (try? connection.send(request)) != nil,
               let answer = try? connection.readResponse(), answer.status == 200, answer.body.contains("\"variant\"") {
                answered += 1
            }
            seconds.append(Date().timeIntervalSince(started))
            Thread.sleep(forTimeInterval: 0.03)
        }
        attack.stop()
        let sorted = seconds.sorted()
        let p99 = sorted[Int(Double(sorted.count - 1) * 0.99)]
        let cut = live.server.cutConnections
        Figures.report("ofrepIsAnsweredWhileSlowAndIdleClientsHoldMoreThanTheCap", [
            "probes": seconds.count, "answered": answered, "p50 ms": Int(sorted[sorted.count / 2] * 1_000), "p99 ms": Int(p99 * 1_000),
            "max ms": Int((sorted.last ?? 0) * 1_000), "attacker connections": attack.connectionsOpened, "peak open": peak,
            "cut at header deadline": cut.headerDeadline, "cut for body rate": cut.bodyRate, "shed near the cap": cut.shed,
        ])
        #expect(answered == 100, "\(answered) of \(seconds.count) probes answered")
        #expect(p99 < 0.1, "p99 \(Int(p99 * 1_000)) ms")
        #expect(cut.shed > 0, "near the cap, the longest-waiting connections make room: \(cut)")
    }
}
