import Foundation
import Synchronization
import Testing
import VouchClient
import VouchJSON
@testable import VouchServer
@testable import VouchServerKit
import VouchStore
import VouchTestSupport

/// The real `vouchd` as an operator meets it: systemd notifications, configuration errors, backup and restore,
/// graceful shutdown, and logs that keep every secret and personal datum out.
@Suite(.serialized) struct OperationsTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    // MARK: systemd

    @Test func notifiesReadyFeedsTheWatchdogInRhythmAndSaysStopping() throws {
        let temporary = try TemporaryDirectory("vouchd-ops")
        let directory = temporary.path
        let socket = try NotifySocket(path: directory + "/notify.sock")
        // 400 ms asked, so vouchd pings every 200 ms.
        let daemon = try DaemonProcess(stateDirectory: directory + "/state",
                                       environment: ["NOTIFY_SOCKET": socket.path, "WATCHDOG_USEC": "400000"])
        var messages: [(text: String, at: Date)] = []
        let deadline = Date().addingTimeInterval(10)
        while messages.filter({ $0.text.contains("WATCHDOG=1") }).count < 6, Date() < deadline {
            if let message = socket.receive(timeoutMilliseconds: 1_000) { messages.append((message, Date())) }
        }
        let ready = try #require(messages.firstIndex { $0.text.split(separator: "\n").contains("READY=1") }, "no READY=1 in \(messages.map(\.text))")
        let pings = messages.enumerated().filter { $0.element.text == "WATCHDOG=1" }
        #expect(pings.count >= 6)
        #expect(pings.allSatisfy { $0.offset > ready }, "every WATCHDOG=1 comes after READY=1")
        #expect(messages[ready].text.contains("STATUS=serving on 127.0.0.1:"))
        let gaps = zip(pings.dropFirst(), pings).map { $0.element.at.timeIntervalSince($1.element.at) }
        #expect(gaps.allSatisfy { $0 > 0.1 && $0 < 0.35 }, "pings every 200 ms, got gaps \(gaps)")
        #expect(daemon.stop(signal: SIGTERM) == 0)
        var after: [String] = []
        while let message = socket.receive(timeoutMilliseconds: 500) { after.append(message) }
        #expect(after.contains { $0.split(separator: "\n").contains("STOPPING=1") }, "got \(after)")
    }

    @Test func withoutNotifySocketNothingIsSentAndTheDaemonRuns() throws {
        let temporary = try TemporaryDirectory("vouchd-ops")
        let directory = temporary.path
        // Also: log.requests = false leaves request lines out, as nginx's access_log off does.
        let daemon = try DaemonProcess(stateDirectory: directory, environment: ["WATCHDOG_USEC": "400000", "VOUCHD_LOG_REQUESTS": "false"])
        let api = DaemonAPI(port: daemon.port, token: daemon.adminToken)
        #expect(try api.call("GET", "/readyz").status == 200)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(daemon.stop() == 0)
        #expect(daemon.logText.contains("msg=listening"))
        #expect(!daemon.logText.contains("msg=request "))
        #expect(!daemon.logText.contains("watchdog"))
    }

    // MARK: configuration

    @Test func configurationErrorsNameTheLineAndWhatIsAllowed() throws {
        let temporary = try TemporaryDirectory("vouchd-ops")
        let directory = temporary.path
        let config = directory + "/vouchd.conf"
        try "# vouchd\nlisten = 127.0.0.1:0\nhttp.max_body_bytes = lots\n".write(toFile: config, atomically: true, encoding: .utf8)
        let badValue = try VouchdRun(["--state-dir", directory + "/state", "--config", config])
        #expect(badValue.status == 78)
        #expect(badValue.errors.contains("\(config) line 3"))
        #expect(badValue.errors.contains("http.max_body_bytes = 'lots' is not valid: expected a whole number from 1024 to 16777216"))
        #expect(!FileManager.default.fileExists(atPath: directory + "/state/vouch.sqlite3"), "nothing starts on a bad configuration")

        try "listen = 127.0.0.1:0\nhttp.thread = 4\n".write(toFile: config, atomically: true, encoding: .utf8)
        let unknown = try VouchdRun(["check-config", "--config", config])
        #expect(unknown.status == 78)
        #expect(unknown.errors.contains("line 2: unknown key 'http.thread'; known keys: listen, state_dir"))

        try "listen 127.0.0.1:0\n".write(toFile: config, atomically: true, encoding: .utf8)
        let noEquals = try VouchdRun(["check-config", "--config", config])
        #expect(noEquals.status == 78)
        #expect(noEquals.errors.contains("line 1: expected 'key = value'"))

        let environment = try VouchdRun(["check-config"], environment: ["VOUCHD_LOG_LEVEL": "loud"])
        #expect(environment.status == 78)
        #expect(environment.errors.contains("environment variable VOUCHD_LOG_LEVEL: log.level = 'loud' is not valid: allowed: debug, info, warning, error"))

        let flag = try VouchdRun(["check-config", "--listen", "nowhere"])
        #expect(flag.status == 78)
        #expect(flag.errors.contains("option --listen"))
    }

    @Test func checkConfigPrintsEveryKeyWithItsSource() throws {
        let temporary = try TemporaryDirectory("vouchd-ops")
        let directory = temporary.path
        let config = directory + "/vouchd.conf"
        try "listen = 127.0.0.1:9999\ncriteria.min_soak = 2h\n".write(toFile: config, atomically: true, encoding: .utf8)
        let run = try VouchdRun(["check-config", "--config", config, "--log-level", "debug"], environment: ["VOUCHD_WEBHOOKS_TIMEOUT": "5s"])
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n").map(String.init)
        // Every key, then the database, the mail relay and the identity provider (neither set here).
        #expect(lines.count == DaemonSettings.all.count + 3)
        #expect(lines.dropLast(2).last?.hasPrefix("Database: SQLite at ") == true, "\(lines.dropLast(2).last ?? "")")
        #expect(lines.dropLast().last == "Notifications by email: off (notifications.smtp_url is empty)")
        #expect(lines.last == "Identity provider: none (console.oidc.issuer is empty); staff sign in with a token")
        #expect(lines.contains("listen = 127.0.0.1:9999    # from file \(config):1"))
        #expect(lines.contains("criteria.min_soak = 2h    # from file \(config):2"))
        #expect(lines.contains("webhooks.timeout = 5s    # from environment VOUCHD_WEBHOOKS_TIMEOUT"))
        #expect(lines.contains("log.level = debug    # from flag --log-level"))
        #expect(lines.contains("http.max_connections = 16384    # from default"))
        #expect(lines.contains("webhooks.dns_timeout = 2s    # from default"))
        let tooLong = try VouchdRun(["check-config"], environment: ["VOUCHD_WEBHOOKS_DNS_TIMEOUT": "1m"])
        #expect(tooLong.status == 78)
        #expect(tooLong.errors.contains("webhooks.dns_timeout = '1m' is not valid"), "\(tooLong.errors)")
        #expect(tooLong.errors.contains("from 1s to 30s"), "\(tooLong.errors)")
    }

    @Test func theExampleConfigurationDocumentsEveryKeyWithItsDefault() throws {
        let example = try String(contentsOf: Self.repository.appendingPathComponent("deploy/vouchd.conf.example"), encoding: .utf8)
        let lines = Set(example.split(separator: "\n").map(String.init))
        for setting in DaemonSettings.all {
            // An empty default is written without the trailing space.
            let line = setting.defaultValue.isEmpty ? "# \(setting.key) =" : "# \(setting.key) = \(setting.defaultValue)"
            #expect(lines.contains(line), "deploy/vouchd.conf.example lacks '\(line)'")
        }
        // As installed, the example changes nothing: every setting in it is commented out.
        var configuration = DaemonConfiguration()
        try configuration.apply(fileContents: example, path: "example")
        #expect(configuration.sources.values.allSatisfy { $0 == "default" })
    }

    // MARK: backup, restore, the state directory lock

    @Test func aBackupTakenWhileServingRestoresTheSameFixesTestersAndFeedback() throws {
        let temporary = try TemporaryDirectory("vouchd-ops")
        let directory = temporary.path
        let daemon = try DaemonProcess(stateDirectory: directory + "/live")
        let api = DaemonAPI(port: daemon.port, token: daemon.adminToken)
        for index in 0..<3 {
            try api.require("POST", "/v1/fixes", json: #"{"key":"fix-\#(index)","title":"T","ui_area":"Area","platforms":["ios"]}"#)
        }
        try api.require("POST", "/v1/fixes/fix-0/start")
        var testers: [String] = []
        for index in 0..<4 {
            let tester = try api.require("POST", "/v1/testers", json: #"{"name":"Tester \#(index)","assistive_tech":["voiceover:ios"],"targeting_keys":["k\#(index)"],"consent":"v1"}"#)
            testers.append(tester["id"]?.stringValue ?? "")
        }
        try api.require("POST", "/v1/fixes/fix-0/enrollments", json: JSONWriter.string(.object(["testers": .strings(testers)])))
        for tester in testers { try api.require("POST", "/v1/fixes/fix-0/feedback", json: FeedbackRoutesTests.passing(tester)) }

        let backup = directory + "/vouch-backup.sqlite3"
        let taken = try VouchdRun(["backup", "--state-dir", directory + "/live", "--to", backup])
        #expect(taken.status == 0, "\(taken.errors)")
        #expect(taken.output.contains("Backup written: \(backup)"))
        #expect(taken.output.contains("Backup checked: SQLite integrity ok, schema version \(Migrator().migrations.last?.version ?? 0)"))
        let mode = (try FileManager.default.attributesOfItem(atPath: backup)[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o600, "a backup holds health data: owner only")
        // A second backup to the same file would overwrite the first: refused.
        #expect(try VouchdRun(["backup", "--state-dir", directory + "/live", "--to", backup]).status == 1)
        // Written after the backup, so not in it.
        try api.require("POST", "/v1/fixes", json: #"{"key":"after-backup","title":"T","ui_area":"Area","platforms":["ios"]}"#)

        // No restore under a running daemon.
        let underDaemon = try VouchdRun(["restore", "--state-dir", directory + "/live", "--from", backup])
        #expect(underDaemon.status == 1)
        #expect(underDaemon.errors.contains("another vouchd"))
        // Nor a second daemon on the same state directory.
        #expect(throws: DaemonProcess.DaemonStartFailure.self) { _ = try DaemonProcess(stateDirectory: directory + "/live") }
        let fixesBefore = try api.collect("/v1/fixes", items: "fixes", field: "key")
        let testersBefore = try api.collect("/v1/testers", items: "testers", field: "id")
        let feedbackBefore = try api.collect("/v1/fixes/fix-0/feedback", items: "feedback", field: "id")
        #expect(daemon.stop() == 0)

        // Restore into a fresh state directory and into the old one, which keeps a copy of what it replaced.
        let fresh = try VouchdRun(["restore", "--state-dir", directory + "/fresh", "--from", backup])
        #expect(fresh.status == 0, "\(fresh.errors)")
        #expect(fresh.output.contains("Replaced database kept as: none"))
        let over = try VouchdRun(["restore", "--state-dir", directory + "/live", "--from", backup])
        #expect(over.status == 0, "\(over.errors)")
        let keptLine = try #require(over.output.split(separator: "\n").first { $0.hasPrefix("Replaced database kept as: ") })
        let kept = String(keptLine.dropFirst("Replaced database kept as: ".count))
        #expect(FileManager.default.fileExists(atPath: kept))

        for state in ["fresh", "live"] {
            let restored = try DaemonProcess(stateDirectory: directory + "/" + state)
            let restoredAPI = DaemonAPI(port: restored.port, token: daemon.adminToken)
            #expect(try restoredAPI.collect("/v1/fixes", items: "fixes", field: "key") == fixesBefore.filter { $0 != "after-backup" })
            #expect(try restoredAPI.collect("/v1/testers", items: "testers", field: "id") == testersBefore)
            #expect(try restoredAPI.collect("/v1/fixes/fix-0/feedback", items: "feedback", field: "id") == feedbackBefore)
            #expect(restored.stop() == 0)
        }
        // The replaced database still has the fix written after the backup: nothing stored was lost.
        let replaced = try DaemonProcess(stateDirectory: try copyAsStateDirectory(kept, in: directory))
        #expect(try DaemonAPI(port: replaced.port, token: daemon.adminToken).call("GET", "/v1/fixes/after-backup").status == 200)
        #expect(replaced.stop() == 0)
    }

    func copyAsStateDirectory(_ database: String, in directory: String) throws -> String {
        let state = directory + "/replaced"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: database, toPath: state + "/vouch.sqlite3")
        return state
    }

    @Test func restoreRefusesWhatIsNotAGoodBackup() throws {
        let temporary = try TemporaryDirectory("vouchd-ops")
        let directory = temporary.path
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: directory + "/junk"))
        let junk = try VouchdRun(["restore", "--state-dir", directory + "/state", "--from", directory + "/junk"])
        #expect(junk.status == 1)
        #expect(junk.errors.contains("is not a vouchd backup") || junk.errors.contains("is not a database"))
        let missing = try VouchdRun(["restore", "--state-dir", directory + "/state", "--from", directory + "/nothing"])
        #expect(missing.status == 1)
        #expect(missing.errors.contains("no backup file"))
        let usage = try VouchdRun(["restore", "--state-dir", directory + "/state"])
        #expect(usage.status == 64)
        #expect(usage.errors.contains("restore needs --from FILE"))
    }

    // MARK: graceful shutdown

    @Test func sigtermDrainsRequestsInFlightAndRefusesNewConnections() throws {
        let temporary = try TemporaryDirectory("vouchd-ops")
        let directory = temporary.path
        let daemon = try DaemonProcess(stateDirectory: directory)
        let token = daemon.adminToken
        // A request in flight: its body is half sent when the signal arrives.
        let body = #"{"key":"in-flight","title":"T","ui_area":"Area","platforms":["ios"]}"#
        let inFlight = try RawConnection(port: daemon.port)
        try inFlight.send("POST /v1/fixes HTTP/1.1\r\nHost: vouch\r\nAuthorization: Bearer \(token)\r\nContent-Type: application/json\r\n"
                          + "Content-Length: \(body.utf8.count)\r\n\r\n" + String(body.prefix(20)))
        // An idle keep-alive connection, as a load balancer's health checker holds.
        let checker = try RawConnection(port: daemon.port)
        try checker.send("GET /readyz HTTP/1.1\r\nHost: vouch\r\n\r\n")
        #expect(try checker.readResponse()?.status == 200)
        Thread.sleep(forTimeInterval: 0.2)

        kill(daemon.process.processIdentifier, SIGTERM)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(daemon.process.isRunning, "vouchd waits for the request in flight")
        try checker.send("GET /readyz HTTP/1.1\r\nHost: vouch\r\n\r\n")
        let draining = try checker.readResponse()
        #expect(draining?.status == 503)
        #expect(draining?.body.contains("shutting down") == true)
        #expect(throws: RawConnection.Failure.self, "no new connection is accepted") { _ = try RawConnection(port: daemon.port) }

        try inFlight.send(String(body.dropFirst(20)))
        #expect(try inFlight.readResponse()?.status == 201)
        daemon.process.waitUntilExit()
        #expect(daemon.process.terminationStatus == 0)
        #expect(daemon.logText.contains("msg=stopped"))
        #expect(!daemon.logText.contains("cut off"))

        let restarted = try DaemonProcess(stateDirectory: directory)
        #expect(try DaemonAPI(port: restarted.port, token: token).call("GET", "/v1/fixes/in-flight").status == 200)
        #expect(restarted.stop() == 0)
    }

    @Test func sigtermWaitsForAWebhookAttemptInFlightAndRecordsIt() throws {
        let temporary = try TemporaryDirectory("vouchd-ops")
        let directory = temporary.path
        let receiver = try WebhookReceiver { _ in .init(status: 200, delaySeconds: 1) }
        let environment = ["VOUCHD_WEBHOOKS_ALLOW_PRIVATE_NETWORKS": "true"]
        let daemon = try DaemonProcess(stateDirectory: directory, environment: environment)
        let api = DaemonAPI(port: daemon.port, token: daemon.adminToken)
        try api.require("POST", "/v1/webhooks", json: #"{"url":"\#(receiver.url)","events":["fix.created"]}"#)
        try api.require("POST", "/v1/fixes", json: #"{"key":"delivered-at-shutdown","title":"T","ui_area":"Area","platforms":["ios"]}"#)
        #expect(receiver.wait(for: 1).count == 1)
        // The receiver holds the request a second: vouchd stops only once the answer is in and recorded.
        let started = Date()
        let status = daemon.stop(signal: SIGTERM)
        #expect(status == 0, "vouchd's log: \(status == 0 ? "" : daemon.logText)")
        #expect(Date().timeIntervalSince(started) > 0.5, "vouchd waited for the attempt in flight")

        let restarted = try DaemonProcess(stateDirectory: directory, environment: environment)
        let deliveries = try DaemonAPI(port: restarted.port, token: daemon.adminToken).require("GET", "/v1/deliveries")["deliveries"]?.arrayValue ?? []
        #expect(deliveries.count == 1)
        #expect(deliveries.first?["status"]?.stringValue == "succeeded")
        Thread.sleep(forTimeInterval: 1)
        #expect(receiver.requests.count == 1, "a recorded attempt is not sent again")
        #expect(restarted.stop() == 0)
    }

    @Test func aStalledRequestDoesNotHoldShutdownPastItsTimeout() throws {
        let temporary = try TemporaryDirectory("vouchd-ops")
        let directory = temporary.path
        let daemon = try DaemonProcess(stateDirectory: directory, environment: ["VOUCHD_HTTP_SHUTDOWN_TIMEOUT": "1s"])
        let stalled = try RawConnection(port: daemon.port)
        try stalled.send("POST /v1/fixes HTTP/1.1\r\nHost: vouch\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
        Thread.sleep(forTimeInterval: 0.2)
        let started = Date()
        #expect(daemon.stop(signal: SIGTERM) == 0)
        let took = Date().timeIntervalSince(started)
        #expect(took >= 0.9 && took < 5, "stopped after \(took) s")
        #expect(daemon.logText.contains("requests still in flight at the shutdown timeout were cut off"))
    }

    // MARK: logs

    @Test func logsAreLogfmtAndHoldNoSecretOrTesterDatumAfterAFullStory() throws {
        let temporary = try TemporaryDirectory("vouchd-ops")
        let directory = temporary.path
        let receiver = try WebhookReceiver()
        let daemon = try DaemonProcess(stateDirectory: directory, extraArguments: ["--log-level", "debug"], environment: [
            "VOUCHD_CRITERIA_MIN_TESTERS_PASSED": "1", "VOUCHD_CRITERIA_REQUIRED_ASSISTIVE_TECH": "ios:voiceover",
            "VOUCHD_CRITERIA_MIN_SOAK": "0", "VOUCHD_WEBHOOKS_ALLOW_PRIVATE_NETWORKS": "true",
        ])
        let api = DaemonAPI(port: daemon.port, token: daemon.adminToken)
        let webhook = try api.require("POST", "/v1/webhooks", json: #"{"url":"\#(receiver.url)","required":true}"#)
        let webhookSecret = try #require(webhook["secret"]?.stringValue)
        let key = "tv-channel-selector-labels"
        try api.require("POST", "/v1/fixes", json: InProcessServer.channelSelectorFix)
        try api.require("POST", "/v1/fixes/\(key)/start")
        let name = "Amira Haddad-Lindqvist"
        let contact = "amira.lindqvist@example.org"
        let tester = try api.require("POST", "/v1/testers", json: #"""
            {"name":"\#(name)","contact":"\#(contact)","assistive_tech":["voiceover:ios:18.2",{"name":"braille_display","platform":"ios"}],
             "targeting_keys":["device-7731"],"consent":"2026-11"}
            """#)
        let testerID = try #require(tester["id"]?.stringValue)
        try api.require("POST", "/v1/fixes/\(key)/enrollments", json: #"{"testers":["\#(testerID)"]}"#)
        let testerToken = try #require(try api.require("POST", "/v1/tokens", json: #"{"name":"amira-phone","role":"tester","tester":"\#(testerID)"}"#)["token"]?.stringValue)
        let comment = "The braille display showed NHK twice"
        try api.require("POST", "/v1/fixes/\(key)/feedback", json: FeedbackRoutesTests.passing(testerID, comment: comment), token: testerToken)
        _ = try api.call("POST", "/v1/fixes", json: "{}", token: "vch_not-a-real-token-at-all-0000000000000000")
        let managerToken = try #require(try api.require("POST", "/v1/tokens", json: #"{"name":"rita","role":"release_manager"}"#)["token"]?.stringValue)
        try api.require("POST", "/v1/fixes/\(key)/approvals", json: #"{"decision":"approve"}"#, token: managerToken)
        var state = ""
        for _ in 0..<100 where state != "released" {
            state = try api.require("GET", "/v1/fixes/\(key)")["state"]?.stringValue ?? ""
            if state != "released" { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(state == "released")
        try api.require("GET", "/v1/testers/\(testerID)/export")
        try api.require("POST", "/v1/testers/\(testerID)/withdraw", json: "{}")
        #expect(daemon.stop() == 0)

        let log = daemon.logText
        let lines = log.split(separator: "\n")
        #expect(lines.count > 20)
        #expect(lines.allSatisfy { $0.hasPrefix("ts=") && $0.contains(" level=") && $0.contains(" msg=") }, "every line is logfmt")
        let requestLines = lines.filter { $0.contains("msg=request ") }
        #expect(requestLines.contains { $0.contains("http.method=POST http.route=/v1/fixes/{key}/feedback http.status=201 duration_ms=") && $0.contains(" request_id=") })
        for secret in [daemon.adminToken, testerToken, managerToken, webhookSecret, String(webhookSecret.dropFirst(6)), name, "Amira", contact,
                       comment, "device-7731", "vch_not-a-real-token"] {
            #expect(!log.contains(secret), "the log holds '\(secret.prefix(8))…'")
        }
        // The start line lists this run's configuration, criteria.required_assistive_tech = ios:voiceover included:
        // a setting, not a tester's datum. Every other line must not name a technology.
        let startSettings = "msg=\"settings that differ from the defaults\""
        #expect(lines.contains { $0.contains(startSettings) && $0.contains("criteria.required_assistive_tech=ios:voiceover") })
        let events = lines.filter { !$0.contains(startSettings) }.joined(separator: "\n")
        for technology in ["braille", "voiceover", "VoiceOver"] {
            #expect(!events.contains(technology), "the log names the tester's technology '\(technology)'")
        }
        // Paths carry pseudonyms; only route patterns are logged.
        #expect(!log.contains(testerID))
    }
}

/// A Unix datagram socket standing in for systemd's notification socket.
final class NotifySocket {
    let path: String
    private let descriptor: Int32

    init(path: String) throws {
        self.path = path
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1))
            }
        }
        guard descriptor >= 0, bound == 0 else { throw RawConnection.Failure("cannot bind \(path): \(String(cString: strerror(errno)))") }
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    func receive(timeoutMilliseconds: Int) -> String? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(timeoutMilliseconds)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
    }
}
