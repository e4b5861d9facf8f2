import Foundation
import Testing
@testable import VouchDaemon
import VouchHTTP
@testable import VouchServer
@testable import VouchServerKit
import VouchTestSupport

/// The HTTP server's limits and deadlines as vouchd's configuration sets them.
@Suite struct HTTPSettingsTests {
    @Test func theDefaultsAreTheDeadlinesAndCapsTheServerGets() {
        let http = DaemonConfiguration().httpConfiguration
        #expect(http.deadlines == ConnectionDeadlines(headerMilliseconds: 10_000, bodyMilliseconds: 10_000, bodyMinBytesPerSecond: 500))
        #expect(http.connectionLimit == 16_384)
        #expect(http.connectionLimitPerAddress == 128)
        #expect(http.limits == RequestLimits(maxHeaderBytes: 16 * 1_024, maxTargetBytes: 8 * 1_024, maxQueryParameters: 100))
    }

    @Test func settingsReachTheServer() throws {
        var configuration = DaemonConfiguration()
        try configuration.set("http.header_timeout", "2s", source: "test", location: "test")
        try configuration.set("http.body_timeout", "1m", source: "test", location: "test")
        try configuration.set("http.body_min_rate", "2000", source: "test", location: "test")
        try configuration.set("http.max_header_bytes", "4096", source: "test", location: "test")
        #expect(configuration.httpConfiguration.deadlines
                == ConnectionDeadlines(headerMilliseconds: 2_000, bodyMilliseconds: 60_000, bodyMinBytesPerSecond: 2_000))
        #expect(configuration.httpConfiguration.limits == RequestLimits(maxHeaderBytes: 4_096, maxTargetBytes: 8 * 1_024, maxQueryParameters: 100))
    }

    /// The API refuses ` 5s` as its document does; a configuration written by a person may keep spaces around a
    /// duration, from the environment as from the file, and in a list of them.
    @Test func configurationDurationsMayHaveSpacesAround() throws {
        var configuration = DaemonConfiguration()
        try configuration.apply(environment: ["VOUCHD_HTTP_HEADER_TIMEOUT": " 2s ", "VOUCHD_WEBHOOKS_RETRY_SCHEDULE": "5s, 1m ,2m"])
        #expect(configuration.httpConfiguration.deadlines.headerMilliseconds == 2_000)
        #expect(configuration.seconds("http.header_timeout") == 2)
    }

    @Test(arguments: [
        ("http.header_timeout", "0s", "expected a duration from 1s to 1h, such as 10s, 15m, 24h or 7d"),
        ("http.header_timeout", "2h", "expected a duration from 1s to 1h"),
        ("http.body_timeout", "soon", "expected a duration from 1s to 1h"),
        ("http.body_min_rate", "0", "expected a whole number from 1 to 1073741824"),
        ("http.body_min_rate", "fast", "expected a whole number from 1 to 1073741824"),
        ("http.connection_timeout", "99999999999999999d", "expected a duration from 1s to 1h"),
        ("http.max_header_bytes", "4095", "expected a whole number from 4096 to 65536"),
        ("http.max_header_bytes", "65537", "expected a whole number from 4096 to 65536"),
        ("http.max_header_bytes", "16k", "expected a whole number from 4096 to 65536"),
    ])
    func badValuesAreRefusedWithWhatIsAllowed(key: String, value: String, allowed: String) {
        var configuration = DaemonConfiguration()
        #expect {
            try configuration.set(key, value, source: "test", location: "line 3")
        } throws: { error in
            String(describing: error).hasPrefix("line 3: \(key) = '\(value)' is not valid: \(allowed)")
        }
    }

    @Test func theConnectionCapFitsUnderTheOpenFileLimit() {
        #expect(FileDescriptorLimit.connectionLimit(configured: 4_096, descriptors: 65_536) == 4_096)
        #expect(FileDescriptorLimit.connectionLimit(configured: 4_096, descriptors: 1_024) == 1_024 - FileDescriptorLimit.reserved)
        #expect(FileDescriptorLimit.connectionLimit(configured: 4_096, descriptors: 10) == 1)
    }

    @Test func theSoftOpenFileLimitIsRaisedToTheHardOne() throws {
        var original = rlimit()
        #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &original) == 0)
        defer { _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &original) }
        // One below the hard limit, so the tests running beside this one keep their descriptors.
        var lowered = original
        lowered.rlim_cur = original.rlim_max - 1
        try #require(setrlimit(Int32(RLIMIT_NOFILE.rawValue), &lowered) == 0)
        #expect(FileDescriptorLimit.raiseToHardLimit() == Int(clamping: original.rlim_max))
    }

    @Test func vouchdLowersItsConnectionCapUnderASmallOpenFileLimitAndSaysSo() throws {
        let temporary = try TemporaryDirectory("vouch-settings")
        let directory = temporary.path
        let daemon = try DaemonProcess(stateDirectory: directory, openFileLimit: 300)
        defer { daemon.stop() }
        #expect(daemon.logText.contains("http.max_connections lowered to fit the open file limit"))
        #expect(daemon.logText.contains("connections=\(300 - FileDescriptorLimit.reserved)"))
        #expect(try DaemonAPI(port: daemon.port, token: daemon.adminToken).call("GET", "/healthz").status == 200)
    }

    @Test func vouchdCutsASlowClientAtItsConfiguredHeaderDeadline() throws {
        let temporary = try TemporaryDirectory("vouch-settings")
        let directory = temporary.path
        let daemon = try DaemonProcess(stateDirectory: directory, environment: ["VOUCHD_HTTP_HEADER_TIMEOUT": "1s"])
        defer { daemon.stop() }
        let limits = try String(contentsOfFile: "/proc/\(daemon.process.processIdentifier)/limits", encoding: .utf8)
        let files = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        let numbers = files.split(separator: " ").compactMap { Int($0) }
        #expect(numbers.count == 2 && numbers[0] == numbers[1], "the soft limit is raised to the hard one: \(files)")

        let slow = try RawConnection(port: daemon.port)
        try slow.send("GET /healthz HTTP/1.1\r\nHost: vouch\r\nX-Slow: ")
        var closed = false
        for _ in 0..<40 where !closed {
            try? slow.send("a")
            closed = slow.isClosedNow
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(closed, "a byte every 0.1 s for 4 s outlasted a 1 s header deadline")
    }

    /// A lower header limit where clients send small heads: heads up to it are served, larger ones get the server's
    /// own 431 naming the setting, and heads past its connection memory (the limit and 8 KiB) libmicrohttpd's 431.
    @Test func vouchdServesHeadsUpToItsConfiguredHeaderLimitAndRefusesLargerOnes() throws {
        let temporary = try TemporaryDirectory("vouch-settings")
        let directory = temporary.path
        let daemon = try DaemonProcess(stateDirectory: directory, environment: ["VOUCHD_HTTP_MAX_HEADER_BYTES": "4096"])
        defer { daemon.stop() }
        func head(padding: Int) -> String {
            "GET /healthz HTTP/1.1\r\nHost: vouch\r\nX-Padding: \(String(repeating: "a", count: padding))\r\n\r\n"
        }
        let fitting = head(padding: 4_096 - head(padding: 0).utf8.count)
        #expect(fitting.utf8.count == 4_096)
        let served = try RawConnection(port: daemon.port)
        try served.send(fitting)
        #expect(try served.readResponse()?.status == 200, "a head of exactly 4,096 bytes is within the limit")
        // The same connection goes on to its next request after a head at the limit.
        try served.send(head(padding: 10))
        #expect(try served.readResponse()?.status == 200)

        let over = try RawConnection(port: daemon.port)
        try over.send(head(padding: 4_097 - head(padding: 0).utf8.count))
        let refused = try #require(try over.readResponse())
        #expect(refused.status == 431)
        #expect(refused.headers["content-type"] == "application/problem+json")
        #expect(refused.body.contains("at most 4096 are allowed (http.max_header_bytes)"), "\(refused.body)")

        // Past the connection's memory (4 KiB + 8 KiB), libmicrohttpd refuses the head itself.
        let far = try RawConnection(port: daemon.port)
        try far.send(head(padding: 13 * 1_024))
        #expect(try far.readResponse()?.status == 431)
        #expect(try DaemonAPI(port: daemon.port, token: daemon.adminToken).call("GET", "/healthz").status == 200)
    }

    /// The default limit still takes heads of several KiB that a smaller setting would refuse.
    @Test func theDefaultHeaderLimitServesAnEightKiBHead() throws {
        let temporary = try TemporaryDirectory("vouch-settings")
        let directory = temporary.path
        let daemon = try DaemonProcess(stateDirectory: directory)
        defer { daemon.stop() }
        let connection = try RawConnection(port: daemon.port)
        try connection.send("GET /healthz HTTP/1.1\r\nHost: vouch\r\nCookie: \(String(repeating: "c", count: 8 * 1_024))\r\n\r\n")
        #expect(try connection.readResponse()?.status == 200)
    }
}
