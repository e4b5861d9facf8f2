import Foundation
import Synchronization
import Testing
import VouchClient
import VouchJSON
import VouchTestSupport

/// The real `vouchd` binary: first start, graceful stop, and durability across SIGKILL.
@Suite(.serialized) struct DaemonProcessTests {
    /// Every `field` of every item of a paged list, following `next_cursor`.
    func collect(from daemon: DaemonProcess, path: String, items: String, field: String, token: String) throws -> Set<String> {
        let client = HTTPClient()
        var stored: Set<String> = []
        var cursor: String?
        repeat {
            let url = "http://127.0.0.1:\(daemon.port)\(path)?limit=500" + (cursor.map { "&cursor=\($0)" } ?? "")
            let page = try JSONParser.parse(try client.send(method: "GET", url: url, headers: [("Authorization", "Bearer \(token)")]).body)
            stored.formUnion(page[items]?.arrayValue?.compactMap { $0[field]?.stringValue } ?? [])
            cursor = page["next_cursor"]?.stringValue
        } while cursor != nil
        return stored
    }

    @Test func firstStartWritesAPrivateAdminTokenThatIsNeverLogged() throws {
        let temporary = try TemporaryDirectory("vouchd-process-tests")
        let directory = temporary.path
        let daemon = try DaemonProcess(stateDirectory: directory)
        let token = daemon.adminToken
        #expect(token.hasPrefix("vch_"))
        let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/admin.token")
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let client = HTTPClient()
        let answer = try client.send(method: "GET", url: "http://127.0.0.1:\(daemon.port)/v1/fixes", headers: [("Authorization", "Bearer \(token)")])
        #expect(answer.status == 200)
        #expect(daemon.stop(signal: SIGTERM) == 0)
        #expect(!daemon.logText.contains(token))
        #expect(daemon.logText.contains("admin.token"))
        // A second start keeps the token: no new one is made while tokens exist.
        let again = try DaemonProcess(stateDirectory: directory)
        #expect(again.adminToken == token)
        #expect(!again.logText.contains("admin token created"))
        #expect(again.stop(signal: SIGINT) == 0)
    }

    /// A trial set-up (loopback webhooks allowed, no soak) is said at start, so nobody mistakes it for production.
    @Test func theStartLogSaysWhichSettingsDifferFromTheDefaults() throws {
        let temporary = try TemporaryDirectory("vouchd-process-tests")
        let directory = temporary.path
        let daemon = try DaemonProcess(stateDirectory: directory, environment: ["VOUCHD_WEBHOOKS_ALLOW_PRIVATE_NETWORKS": "true",
                                                                                "VOUCHD_CRITERIA_MIN_SOAK": "0"])
        #expect(daemon.stop(signal: SIGTERM) == 0)
        let line = try #require(daemon.logText.split(separator: "\n").first { $0.contains("settings that differ from the defaults") })
        #expect(line.contains("webhooks.allow_private_networks=true"))
        #expect(line.contains("criteria.min_soak=0"))
        #expect(!line.contains("criteria.approvals_required"), "a default is not listed")
    }

    @Test func refusesToStartOnADatabaseFromANewerBinary() throws {
        let temporary = try TemporaryDirectory("vouchd-process-tests")
        let directory = temporary.path
        let daemon = try DaemonProcess(stateDirectory: directory)
        daemon.stop()
        let sqlite = ChildProcess()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sqlite.arguments = ["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"INSERT INTO schema_migrations VALUES (999,'future',0)\"); c.commit()", directory + "/vouch.sqlite3"]
        try sqlite.run()
        sqlite.waitUntilExit()
        #expect(sqlite.terminationStatus == 0)
        #expect(throws: DaemonProcess.DaemonStartFailure.self) { try DaemonProcess(stateDirectory: directory) }
    }

    @Test func everyAcknowledgedWriteSurvivesSIGKILL() throws {
        let temporary = try TemporaryDirectory("vouchd-process-tests")
        let directory = temporary.path
        let daemon = try DaemonProcess(stateDirectory: directory)
        let token = daemon.adminToken
        let base = "http://127.0.0.1:\(daemon.port)"
        let pid = daemon.process.processIdentifier
        let acknowledged = Mutex<[String]>([])
        let stopAt = Date().addingTimeInterval(1.5)
        // Four writers create fixes until the daemon is killed under them.
        DispatchQueue.concurrentPerform(iterations: 5) { worker in
            if worker == 4 {
                Thread.sleep(forTimeInterval: 0.7)
                kill(pid, SIGKILL)
                return
            }
            let client = HTTPClient(timeoutSeconds: 2)
            var index = 0
            while Date() < stopAt {
                let key = "fix-\(worker)-\(index)"
                index += 1
                let body = #"{"key":"\#(key)","title":"T","ui_area":"Area","platforms":["ios"]}"#
                guard let answer = try? client.send(method: "POST", url: base + "/v1/fixes",
                                                    headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")],
                                                    body: Array(body.utf8)) else { break }
                if answer.status == 201 { acknowledged.withLock { $0.append(key) } }
            }
        }
        daemon.process.waitUntilExit()
        #expect(daemon.process.terminationReason == .uncaughtSignal)
        let keys = acknowledged.withLock { $0 }
        #expect(keys.count > 10, "too few writes before the kill to prove anything")
        let restarted = try DaemonProcess(stateDirectory: directory)
        defer { restarted.stop() }
        let stored = try collect(from: restarted, path: "/v1/fixes", items: "fixes", field: "key", token: token)
        let lost = Set(keys).subtracting(stored)
        #expect(lost.isEmpty, "acknowledged but lost after SIGKILL: \(lost.sorted().prefix(10))")
        Figures.report("SIGKILL during fix writes", ["writes acknowledged": keys.count, "records checked": stored.count, "lost": lost.count])
    }

    @Test func everyAcknowledgedFeedbackSurvivesSIGKILL() throws {
        let temporary = try TemporaryDirectory("vouchd-process-tests")
        let directory = temporary.path
        let daemon = try DaemonProcess(stateDirectory: directory)
        let token = daemon.adminToken
        let base = "http://127.0.0.1:\(daemon.port)"
        let setup = HTTPClient()
        let headers = [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")]
        func post(_ path: String, _ body: String) throws -> JSONValue {
            try JSONParser.parse(try setup.send(method: "POST", url: base + path, headers: headers, body: Array(body.utf8)).body)
        }
        _ = try post("/v1/fixes", #"{"key":"tv-channel-selector-labels","title":"T","ui_area":"TV channel selector","platforms":["ios"]}"#)
        _ = try post("/v1/fixes/tv-channel-selector-labels/start", "{}")
        var testers: [String] = []
        for index in 0..<8 {
            let tester = try post("/v1/testers", #"{"name":"Tester \#(index)","assistive_tech":["voiceover:ios"],"targeting_keys":["k\#(index)"],"consent":"v1"}"#)
            testers.append(tester["id"]?.stringValue ?? "")
        }
        _ = try post("/v1/fixes/tv-channel-selector-labels/enrollments", #"{"testers":\#(JSONWriter.string(.strings(testers)))}"#)
        let pid = daemon.process.processIdentifier
        let acknowledged = Mutex<[String]>([])
        let stopAt = Date().addingTimeInterval(1.5)
        let enrolled = testers
        DispatchQueue.concurrentPerform(iterations: 9) { worker in
            if worker == 8 {
                Thread.sleep(forTimeInterval: 0.7)
                kill(pid, SIGKILL)
                return
            }
            let client = HTTPClient(timeoutSeconds: 2)
            let body = FeedbackRoutesTests.passing(enrolled[worker])
            while Date() < stopAt {
                guard let answer = try? client.send(method: "POST", url: base + "/v1/fixes/tv-channel-selector-labels/feedback",
                                                    headers: headers, body: Array(body.utf8)) else { break }
                if answer.status == 201, let id = (try? JSONParser.parse(answer.body))?["id"]?.stringValue {
                    acknowledged.withLock { $0.append(id) }
                }
            }
        }
        daemon.process.waitUntilExit()
        let ids = acknowledged.withLock { $0 }
        #expect(ids.count > 10, "too few writes before the kill to prove anything")
        let restarted = try DaemonProcess(stateDirectory: directory)
        defer { restarted.stop() }
        let stored = try collect(from: restarted, path: "/v1/fixes/tv-channel-selector-labels/feedback", items: "feedback", field: "id", token: token)
        let lost = Set(ids).subtracting(stored)
        #expect(lost.isEmpty, "acknowledged but lost after SIGKILL: \(lost.sorted().prefix(10))")
        Figures.report("SIGKILL during feedback intake", ["feedback acknowledged": ids.count, "records checked": stored.count, "lost": lost.count])
    }

    @Test func aDeliveryWaitingForItsRetryResumesAfterARestart() throws {
        let temporary = try TemporaryDirectory("vouchd-process-tests")
        let directory = temporary.path
        let receiver = try WebhookReceiver { index in index == 0 ? .init(status: 500) : .init(status: 200) }
        let environment = ["VOUCHD_WEBHOOKS_ALLOW_PRIVATE_NETWORKS": "true", "VOUCHD_WEBHOOKS_RETRY_SCHEDULE": "2s,2s"]
        let daemon = try DaemonProcess(stateDirectory: directory, environment: environment)
        let token = daemon.adminToken
        let client = HTTPClient()
        let headers = [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")]
        let created = try client.send(method: "POST", url: "http://127.0.0.1:\(daemon.port)/v1/webhooks", headers: headers,
                                      body: Array(#"{"url":"\#(receiver.url)","events":["fix.created"]}"#.utf8))
        #expect(created.status == 201)
        _ = try client.send(method: "POST", url: "http://127.0.0.1:\(daemon.port)/v1/fixes", headers: headers,
                            body: Array(#"{"key":"k","title":"T","ui_area":"A","platforms":["ios"]}"#.utf8))
        #expect(receiver.wait(for: 1).count == 1)
        // Stopped while the delivery waits for its retry; nothing is sent while vouchd is down.
        #expect(daemon.stop() == 0)
        Thread.sleep(forTimeInterval: 2.5)
        #expect(receiver.requests.count == 1)
        let restarted = try DaemonProcess(stateDirectory: directory, environment: environment)
        defer { restarted.stop() }
        let requests = receiver.wait(for: 2, seconds: 10)
        #expect(requests.count == 2)
        #expect(requests.count == 2 && requests[0].id == requests[1].id)
    }
}
