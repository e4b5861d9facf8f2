import Foundation
import Synchronization
import VouchDomain
@testable import VouchStore

/// Values the store tests write: the seeds' channel-selector fix, testers, their feedback.
enum StoreFixtures {
    static let time = Date(timeIntervalSince1970: 1_790_000_000)

    static func fix(_ key: String = "tv-channel-selector-labels") throws -> Fix {
        Fix(key: try FixKey(validating: key), title: "Label channel logos", uiArea: "TV channel selector", platforms: [.ios],
            wcag: ["1.1.1", "4.1.2"], expectedAnnouncement: "NHK, button, selected", author: "maria", createdAt: time, updatedAt: time)
    }

    static func tester(_ id: String, keys: [String]) -> Tester {
        Tester(id: id, name: "Tester \(id)", contact: nil, assistiveTech: [AssistiveTechProfile(technology: .voiceover, platform: .ios)],
               targetingKeys: keys, consent: Consent(version: "2026-11", givenAt: time, recordedBy: "maria"), createdAt: time, updatedAt: time)
    }

    static func passing(_ id: String, by tester: String, on key: String = "tv-channel-selector-labels") -> Feedback {
        Feedback(id: id, fixKey: key, revision: 1, testerID: tester, platform: .ios, osVersion: "18.2", appBuild: "412", assistiveTech: .voiceover,
                 verdict: .passed, taskOutcome: .completedIndependently, severity: .none, channel: .http, recordedBy: "maria", recordedAt: time)
    }

    /// A fix in testing with `testers` enrolled testers (`t_0`, `t_1`…), each targeted by the key `user-<n>`.
    static func fixInTesting(_ store: RelationalStore, testers: Int) throws {
        _ = try store.createFix(try fix(), by: "maria")
        _ = try store.updateFix("tv-channel-selector-labels", action: .fixStart, by: "maria", note: nil) { try $0.applying(.start, at: time) }
        let ids = (0..<testers).map { "t_\($0)" }
        for (index, id) in ids.enumerated() { _ = try store.createTester(tester(id, keys: ["user-\(index)"]), by: "maria") }
        _ = try store.enroll(ids, in: "tv-channel-selector-labels", by: "maria", at: time)
    }

    /// Makes every later COMMIT of a transaction that runs `trigger` fail: the trigger inserts a row whose deferred
    /// foreign key has no parent, which SQLite checks only at COMMIT ("deferred foreign key constraints are not
    /// checked until the transaction tries to COMMIT").
    static func failCommits(of store: RelationalStore, whenever trigger: String) throws {
        try store.database.write { connection in
            try connection.execute("""
                CREATE TABLE commit_gate_parent (id INTEGER PRIMARY KEY);
                CREATE TABLE commit_gate (parent INTEGER REFERENCES commit_gate_parent (id) DEFERRABLE INITIALLY DEFERRED);
                CREATE TRIGGER fail_commit \(trigger) BEGIN INSERT INTO commit_gate (parent) VALUES (1); END;
                """)
        }
    }
}

/// Everything a change feed published, in the order it arrived.
final class PublicationLog: Sendable {
    private let list = Mutex<[CommittedChanges]>([])

    init(_ feed: ChangeFeed) {
        feed.subscribe { [self] committed in list.withLock { $0.append(committed) } }
    }

    var all: [CommittedChanges] { list.withLock { $0 } }

    /// The records of every published `feedbackRecorded`.
    var feedbackIDs: [String] {
        all.flatMap(\.changes).flatMap { change -> [String] in
            if case .feedbackRecorded(let recorded) = change { return recorded.records.map(\.id) }
            return []
        }
    }
}

/// An error a test's body throws on purpose, to see its transaction rolled back.
struct RefusedOnPurpose: Error {}

extension StoreFixtures {
    /// Runs `writers` callers at once through `groupWrite`; each inserts its index into `items (n)`, then runs
    /// `andThen`, which may throw to fail that caller alone. Returns how many callers failed.
    static func concurrentGroupWrites(on database: any SQLDatabase, writers: Int,
                                      andThen: @escaping @Sendable (Int, any SQLConnection) throws -> Void) -> Int {
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: writers) { index in
            do {
                let value: Int = try database.groupWrite { connection in
                    try connection.query("INSERT INTO items (n) VALUES (?)", [.int(index)])
                    try andThen(index, connection)
                    return index
                }
                if value != index { failures.withLock { $0 += 1 } }
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        return failures.withLock { $0 }
    }
}
