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

    /// A passing record, or a failing one of serious severity, `minutes` after `time`.
    static func recorded(_ id: String, by tester: String, failed: Bool, minutesLater minutes: Double) -> Feedback {
        var feedback = passing(id, by: tester)
        if failed {
            feedback.verdict = .failed
            feedback.severity = .serious
        }
        feedback.recordedAt = time.addingTimeInterval(minutes * 60)
        return feedback
    }

    /// A fix in testing with `testers` enrolled testers (`t_0`, `t_1`…), each targeted by the key `user-<n>`.
    static func fixInTesting(_ store: RelationalStore, testers: Int) throws {
        _ = try store.createFix(try fix(), by: "maria")
        _ = try store.updateFix("tv-channel-selector-labels", action: .fixStart, by: "maria", note: nil) { try $0.applying(.start, at: time) }
        let ids = (0..<testers).map { "t_\($0)" }
        for (index, id) in ids.enumerated() { _ = try store.createTester(tester(id, keys: ["user-\(index)"]), by: "maria") }
        _ = try store.enroll(ids, in: "tv-channel-selector-labels", by: "maria", at: time)
    }

    /// Makes every later COMMIT of a transaction that inserts into `table` (a row meeting `condition`, if given) fail:
    /// a trigger inserts a row whose deferred foreign key has no parent, which both databases check only at COMMIT
    /// (SQLite: "deferred foreign key constraints are not checked until the transaction tries to COMMIT"; PostgreSQL:
    /// "DEFERRABLE INITIALLY DEFERRED … checked only at the end of the transaction"). Triggers are written per dialect.
    static func failCommits(of store: RelationalStore, afterInsertOn table: String, when condition: String? = nil) throws {
        let when = condition.map { " WHEN (\($0))" } ?? ""
        let trigger = switch store.database.dialect {
        case .sqlite:
            "CREATE TRIGGER fail_commit AFTER INSERT ON \(table) FOR EACH ROW\(when) BEGIN INSERT INTO commit_gate (parent) VALUES (1); END;"
        case .postgres:
            """
            CREATE FUNCTION fail_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO commit_gate (parent) VALUES (1); RETURN NULL; END $$;
            CREATE TRIGGER fail_commit AFTER INSERT ON \(table) FOR EACH ROW\(when) EXECUTE FUNCTION fail_commit();
            """
        }
        try store.database.write { connection in
            try connection.execute("""
                CREATE TABLE commit_gate_parent (id INTEGER PRIMARY KEY);
                CREATE TABLE commit_gate (parent INTEGER REFERENCES commit_gate_parent (id) DEFERRABLE INITIALLY DEFERRED);
                \(trigger)
                """)
        }
    }

    /// A constraint the database checks itself, with the codes each database reports its violation with.
    enum Constraint {
        case unique
        case foreignKey

        /// SQLite's extended result codes: SQLITE_CONSTRAINT_UNIQUE or _PRIMARYKEY (PostgreSQL says 23505 for both),
        /// SQLITE_CONSTRAINT_FOREIGNKEY.
        var sqliteCodes: Set<Int32> { self == .unique ? [2067, 1555] : [787] }
        var sqlState: String { self == .unique ? "23505" : "23503" }
    }

    /// Whether `error` is the database refusing a row that breaks `constraint`, as either database reports it.
    static func isViolation(_ error: any Error, of constraint: Constraint) -> Bool {
        switch error {
        case let sqlite as SQLiteError: constraint.sqliteCodes.contains(sqlite.code)
        case let postgres as PostgresError: postgres.sqlState == constraint.sqlState
        default: false
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

/// Tokens, webhook endpoints and events the store tests write.
extension StoreFixtures {
    /// A token whose secret's hash is its id's bytes padded with zero bytes to 32: unique per id, and a blob with zeros.
    static func token(_ id: String, role: Role = .sdk, testerID: String? = nil, hash: [UInt8]? = nil) -> TokenRecord {
        TokenRecord(id: id, name: id, principalName: testerID ?? "ios-app", role: role, testerID: testerID,
                    secretSHA256: hash ?? Array((Array(id.utf8) + Array(repeating: 0, count: 32)).prefix(32)), createdBy: "admin", createdAt: time)
    }

    static func endpoint(_ id: String, events: [WebhookEventType] = [], required: Bool = true) -> WebhookEndpoint {
        WebhookEndpoint(id: id, url: "https://hooks.example.com/\(id)", events: events, required: required, secret: "whsec_test",
                        createdBy: "admin", createdAt: time, updatedAt: time)
    }

    static func event(_ id: String, _ type: WebhookEventType = .fixCreated, body: [UInt8] = Array(#"{"type":"fix.created"}"#.utf8),
                      at createdAt: Date = time) -> WebhookEvent {
        WebhookEvent(id: id, type: type, fixKey: nil, revision: nil, body: body, createdAt: createdAt)
    }
}
