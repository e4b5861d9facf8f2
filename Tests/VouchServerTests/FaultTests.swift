import Foundation
import Synchronization
import Testing
import VouchClient
import VouchJSON
@testable import VouchStore
import VouchTestSupport

/// Faults under the daemon: a database locked by another process, a full disk, a kill during webhook delivery.
/// Each one answers clearly while it lasts and loses nothing that was acknowledged.
@Suite(.serialized) struct FaultTests {
    static let key = "tv-channel-selector-labels"

    static func fixBody(_ key: String) -> String { #"{"key":"\#(key)","title":"T","ui_area":"Settings screen","platforms":["ios"]}"# }

    /// Submits one passing feedback per tester at once, each on its own connection; returns (status, id) per tester.
    static func submitConcurrently(_ server: FaultServer, testers: [String], keyPrefix: String) -> [(status: Int, id: String?, replayed: Bool)] {
        let answers = Mutex<[Int: (Int, String?, Bool)]>([:])
        let address = server.address
        DispatchQueue.concurrentPerform(iterations: testers.count) { index in
            let client = HTTPClient(timeoutSeconds: 10)
            let answer = try? address.call("POST", "/v1/fixes/\(key)/feedback", json: FeedbackRoutesTests.passing(testers[index]),
                                          headers: [("Idempotency-Key", "\(keyPrefix)-\(index)")], using: client)
            answers.withLock {
                $0[index] = (answer?.status ?? 0, answer?.json["id"]?.stringValue, answer?.headers["idempotent-replayed"] == "true")
            }
        }
        return answers.withLock { all in (0..<testers.count).map { all[$0].map { (status: $0.0, id: $0.1, replayed: $0.2) } ?? (0, nil, false) } }
    }

    // MARK: - Database locked by another process

    @Test func writesAnswer503WhileAnotherProcessHoldsTheWriteLockAndReadsGoOn() throws {
        let temporary = try TemporaryDirectory("vouch-fault-tests")
        let directory = temporary.path
        let server = try FaultServer(directory: directory, busyTimeoutMilliseconds: 200)
        defer { server.stop() }
        let testers = try server.startedFixWithTesters(Self.key, testers: 8)
        let before = Self.submitConcurrently(server, testers: testers, keyPrefix: "before")
        #expect(before.map(\.status) == Array(repeating: 201, count: 8))
        var acknowledged = Set(before.compactMap(\.id))

        let lock = try WriteLockHolder(databasePath: server.databasePath)
        defer { lock.release() }
        let started = ContinuousClock.now
        let refused = try server.call("POST", "/v1/fixes", json: Self.fixBody("written-while-locked"))
        let waited = ContinuousClock.now - started
        #expect(refused.status == 503, "\(refused.text)")
        #expect(refused.headers["retry-after"] == "1")
        #expect(refused.headers["content-type"] == "application/problem+json")
        #expect(refused.json["status"]?.intValue == 503)
        #expect(refused.json["title"]?.stringValue == "Service Unavailable")
        #expect(refused.json["detail"]?.stringValue?.contains("database is busy") == true)
        #expect(waited >= .milliseconds(150) && waited < .seconds(3), "the write waits for the 200 ms busy timeout, then gives up: \(waited)")
        // Eight submissions at once go through the group commit: each fails with the busy error, none is acknowledged.
        let during = Self.submitConcurrently(server, testers: testers, keyPrefix: "during")
        #expect(during.map(\.status) == Array(repeating: 503, count: 8), "\(during.map(\.status))")
        #expect(during.allSatisfy { $0.id == nil })
        // Readers keep working beside the lock (WAL).
        #expect(try server.call("GET", "/v1/fixes/\(Self.key)").json["state"]?.stringValue == "testing")
        #expect(try server.feedbackIDs(Self.key) == acknowledged)
        let flag = try server.call("POST", "/ofrep/v1/evaluate/flags/\(Self.key)", json: #"{"context":{"targetingKey":"user-3"}}"#)
        #expect(flag.status == 200)
        #expect(flag.json["value"] == .bool(true))

        lock.release()
        #expect(try server.call("POST", "/v1/fixes", json: Self.fixBody("written-after-the-lock")).status == 201)
        // The same idempotency keys now store the feedback: the refused attempts left nothing behind to replay.
        let after = Self.submitConcurrently(server, testers: testers, keyPrefix: "during")
        #expect(after.map(\.status) == Array(repeating: 201, count: 8))
        #expect(after.allSatisfy { !$0.replayed })
        acknowledged.formUnion(after.compactMap(\.id))
        #expect(try server.call("GET", "/v1/fixes/written-while-locked").status == 404)
        let stored = try server.feedbackIDs(Self.key)
        #expect(stored == acknowledged, "lost: \(acknowledged.subtracting(stored).count), unexpected: \(stored.subtracting(acknowledged).count)")
        #expect(stored.count == 16)
        #expect(try server.integrityCheck() == "ok")
        Figures.report("database locked by another process", [
            "writes refused with 503": 1 + during.filter { $0.status == 503 }.count, "reads answered during the lock": 3,
            "feedback acknowledged": acknowledged.count, "records checked": stored.count, "lost": acknowledged.subtracting(stored).count,
        ])
    }

    /// SQLite may roll back a whole transaction on SQLITE_FULL or SQLITE_IOERR ("it might be necessary for SQLite to
    /// rollback and cancel the entire transaction"); the group commit must then fail every member, not only the one that hit it.
    @Test func aGroupMemberWhoseErrorEndedTheTransactionFailsEveryMember() throws {
        let temporary = try TemporaryDirectory("vouch-fault-tests")
        let directory = temporary.path
        let database = try SQLiteDatabase(path: directory + "/group.sqlite3")
        try database.write { try $0.execute("CREATE TABLE items (n INTEGER PRIMARY KEY)") }
        let outcomes = Mutex<[Int: Int32]>([:])
        let group = DispatchGroup()
        // Holding the writer, queue four jobs in a known order so one leader carries them all in one batch.
        try database.withWriter { _ in
            for index in 0..<4 {
                group.enter()
                // Threads of their own: each blocks on the writer, which would starve a small dispatch pool.
                Thread {
                    defer { group.leave() }
                    do {
                        _ = try database.groupWrite { connection -> Int in
                            try connection.query("INSERT INTO items (n) VALUES (?)", [.int(index)])
                            if index == 2 {
                                try connection.execute("ROLLBACK")
                                throw SQLiteError(code: 13, message: "database or disk is full", sql: nil)
                            }
                            return index
                        }
                        outcomes.withLock { $0[index] = 0 }
                    } catch {
                        outcomes.withLock { $0[index] = (error as? SQLiteError)?.code ?? -1 }
                    }
                }.start()
                let deadline = Date().addingTimeInterval(5)
                while database.groupCommit.queuedJobs <= index, Date() < deadline { usleep(1_000) }
            }
        }
        group.wait()
        let rows = Set(try database.read { try $0.query("SELECT n FROM items").map { $0.int(0) } })
        let results = outcomes.withLock { $0 }
        // Each caller's answer must match what is stored: no acknowledged row lost, no refused row kept.
        for index in 0..<4 {
            if results[index] == 0 {
                #expect(rows.contains(index), "job \(index) was acknowledged but its row is gone")
            } else {
                #expect(!rows.contains(index), "job \(index) was told it failed but its row was committed")
            }
        }
        #expect(results[2] == 13, "the failing member keeps its own error, got \(String(describing: results[2]))")
        #expect(rows.isEmpty, "the batch's transaction ended with member 2; nothing after it may run on its own")
    }

    // MARK: - Full disk

    @Test func aFullDiskAnswers507AndLosesNothingAcknowledged() throws {
        let fileSystem: SmallFileSystem
        switch SmallFileSystem.mount(megabytes: 16) {
        case .success(let mounted): fileSystem = mounted
        case .failure(let reason):
            print("Skipped: aFullDiskAnswers507AndLosesNothingAcknowledged: \(reason)")
            return
        }
        defer { fileSystem.unmount() }
        try fillTheDiskUnder(FaultServer(directory: fileSystem.path), fileSystem: fileSystem)
    }

    func fillTheDiskUnder(_ server: FaultServer, fileSystem: SmallFileSystem) throws {
        defer { server.stop() }
        let testers = try server.startedFixWithTesters(Self.key, testers: 4)
        let before = Self.submitConcurrently(server, testers: testers, keyPrefix: "before")
        #expect(before.map(\.status) == Array(repeating: 201, count: 4))
        var acknowledged = Set(before.compactMap(\.id))
        // An empty WAL, so the next commit must grow a file on the full disk.
        try (server.store?.database as? SQLiteDatabase)?.checkpointAndTruncate()
        let filled = fileSystem.fill()
        #expect(filled > 0)

        let refused = try server.call("POST", "/v1/fixes", json: Self.fixBody("written-on-a-full-disk"))
        #expect(refused.status == 507, "\(refused.text)")
        #expect(refused.headers["content-type"] == "application/problem+json")
        #expect(refused.json["title"]?.stringValue == "Insufficient Storage")
        let detail = refused.json["detail"]?.stringValue ?? ""
        #expect(detail.contains("disk") && detail.contains("full") && detail.contains("not stored"), "\(detail)")
        let during = Self.submitConcurrently(server, testers: testers, keyPrefix: "during")
        #expect(during.map(\.status) == Array(repeating: 507, count: 4), "\(during.map(\.status))")
        // Reads and flag evaluation go on.
        #expect(try server.call("GET", "/v1/fixes/\(Self.key)").status == 200)
        #expect(try server.feedbackIDs(Self.key) == acknowledged)
        #expect(try server.call("POST", "/ofrep/v1/evaluate/flags/\(Self.key)", json: #"{"context":{"targetingKey":"user-1"}}"#).json["value"] == .bool(true))

        fileSystem.removeFiller()
        #expect(try server.call("POST", "/v1/fixes", json: Self.fixBody("written-after-space-was-freed")).status == 201)
        let after = Self.submitConcurrently(server, testers: testers, keyPrefix: "during")
        #expect(after.map(\.status) == Array(repeating: 201, count: 4))
        #expect(after.allSatisfy { !$0.replayed })
        acknowledged.formUnion(after.compactMap(\.id))
        #expect(try server.call("GET", "/v1/fixes/written-on-a-full-disk").status == 404)
        let stored = try server.feedbackIDs(Self.key)
        #expect(stored == acknowledged, "lost: \(acknowledged.subtracting(stored).count)")
        #expect(stored.count == 8)
        #expect(try server.integrityCheck() == "ok")
        Figures.report("full disk (16 MiB tmpfs)", [
            "filler bytes": filled, "writes refused with 507": 1 + during.filter { $0.status == 507 }.count,
            "feedback acknowledged": acknowledged.count, "records checked": stored.count, "lost": acknowledged.subtracting(stored).count,
        ])
    }

    // MARK: - SIGKILL during webhook delivery

    @Test func everyEventIsDeliveredAtLeastOnceWhenVouchdIsKilledMidDelivery() throws {
        let temporary = try TemporaryDirectory("vouch-fault-tests")
        let directory = temporary.path
        // A slow receiver: each request is held a second before its 200.
        let receiver = try WebhookReceiver { _ in .init(status: 200, delaySeconds: 1) }
        let environment = ["VOUCHD_WEBHOOKS_ALLOW_PRIVATE_NETWORKS": "true", "VOUCHD_WEBHOOKS_RETRY_SCHEDULE": "1s,1s,1s"]
        let daemon = try DaemonProcess(stateDirectory: directory, environment: environment)
        let token = daemon.adminToken
        let headers = [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")]
        let client = HTTPClient()
        func post(_ port: UInt16, _ path: String, _ body: String) throws -> HTTPClient.Response {
            try client.send(method: "POST", url: "http://127.0.0.1:\(port)\(path)", headers: headers, body: Array(body.utf8))
        }
        let webhook = try JSONParser.parse(try post(daemon.port, "/v1/webhooks", #"{"url":"\#(receiver.url)","events":["fix.created"]}"#).body)
        let secret = try #require(webhook["secret"]?.stringValue)
        let events = 5
        for index in 0..<events {
            #expect(try post(daemon.port, "/v1/fixes", Self.fixBody("fix-\(index)")).status == 201)
        }
        // The first answers went out and a later request is being held: kill -9 with deliveries in flight.
        #expect(receiver.wait(for: 3).count >= 3)
        kill(daemon.process.processIdentifier, SIGKILL)
        daemon.process.waitUntilExit()
        #expect(daemon.process.terminationReason == .uncaughtSignal)
        let seenBeforeKill = receiver.requests.count

        let restarted = try DaemonProcess(stateDirectory: directory, environment: environment)
        defer { restarted.stop() }
        var deliveries: [JSONValue] = []
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let answer = try client.send(method: "GET", url: "http://127.0.0.1:\(restarted.port)/v1/deliveries?limit=100", headers: headers)
            deliveries = (try JSONParser.parse(answer.body))["deliveries"]?.arrayValue ?? []
            if deliveries.count == events, deliveries.allSatisfy({ $0["status"]?.stringValue == "succeeded" }) { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(deliveries.count == events)
        #expect(deliveries.allSatisfy { $0["status"]?.stringValue == "succeeded" }, "\(deliveries.map { $0["status"]?.stringValue ?? "" })")
        let eventIDs = Set(deliveries.compactMap { $0["event"]?.stringValue })
        let received = receiver.requests
        let byID = Dictionary(grouping: received, by: \.id)
        #expect(Set(byID.keys) == eventIDs, "lost: \(eventIDs.subtracting(byID.keys).count)")
        // At least once: a request in flight at the kill is sent again, with the same webhook-id and the same bytes.
        #expect(received.count > events, "\(received.count) requests for \(events) events; \(seenBeforeKill) before the kill")
        for (id, copies) in byID where copies.count > 1 {
            #expect(copies.allSatisfy { $0.body == copies[0].body }, "duplicates of \(id) differ")
        }
        #expect(received.allSatisfy { WebhookReceiver.verify($0, secret: secret) })
        Figures.report("SIGKILL during webhook delivery", [
            "events": events, "requests received": received.count, "received before the kill": seenBeforeKill,
            "duplicates (same webhook-id)": received.count - byID.count, "deliveries checked": deliveries.count,
            "lost": eventIDs.subtracting(byID.keys).count,
        ])
    }
}
