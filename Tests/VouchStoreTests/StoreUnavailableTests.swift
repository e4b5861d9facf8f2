import Dispatch
import Foundation
import Testing
import VouchDomain
@testable import VouchStore
import VouchTestSupport

/// Each dialect's way of saying "not now" leaves the store as its own `StoreUnavailable`, on writes and on reads;
/// what the store does not name (a constraint) stays the dialect's error.
struct StoreUnavailableTests {
    @Test func aWriteThatFindsTheSQLiteFileLockedIsBusy() throws {
        let directory = try TemporaryDirectory()
        let store = try RelationalStore(path: directory.file("vouch.sqlite3"), busyTimeoutMilliseconds: 100)
        // An operator's sqlite3 shell in the middle of a write transaction.
        let shell = try SQLiteConnection(path: directory.file("vouch.sqlite3"))
        try shell.beginWrite()
        let error = try #require(throws: StoreUnavailable.self) { try store.createFix(try StoreFixtures.fix(), by: "maria") }
        #expect(error.reason == .busy(heldBy: .anotherConnection))
        #expect(error.cause.hasPrefix("SQLite error 5"), "the log keeps what SQLite said: \(error.cause)")
        // Feedback goes through the group commit, which reports the lock the same way.
        let grouped = try #require(throws: StoreUnavailable.self) {
            try store.submitFeedback([StoreFixtures.passing("fb_1", by: "t_0")], by: "maria", idempotency: nil)
        }
        #expect(grouped.reason == .busy(heldBy: .anotherConnection))
        try shell.execute("ROLLBACK")
        #expect(try store.createFix(try StoreFixtures.fix(), by: "maria").key.rawValue == "tv-channel-selector-labels")
    }

    @Test func aWriteThatOutgrowsTheSQLiteFileIsDiskFull() throws {
        let directory = try TemporaryDirectory()
        let store = try RelationalStore(path: directory.file("vouch.sqlite3"))
        // SQLite answers SQLITE_FULL once the file would pass `max_page_count`, as it does when the disk is full.
        try store.database.withWriter { connection in
            let pages = try connection.scalar("PRAGMA page_count") ?? 0
            try connection.query("PRAGMA max_page_count = \(pages)")
        }
        let error = try #require(throws: StoreUnavailable.self) {
            for index in 0..<200 {
                _ = try store.createTester(StoreFixtures.tester("t_\(index)", keys: ["user-\(index)"]), by: "maria")
            }
        }
        #expect(error.reason == .diskFull)
        #expect(error.cause.hasPrefix("SQLite error 13"), "the log keeps what SQLite said: \(error.cause)")
    }

    @Test func aWriteThatWaitsPastThePostgresLockTimeoutIsBusy() throws {
        try PostgresTestDatabase.run { server in
            let store = try RelationalStore(database: try server.makeDatabase(writeLockLimits: .init(wait: .milliseconds(100))))
            let otherVouchd = try server.makeDatabase()
            let holding = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let done = DispatchGroup()
            DispatchQueue.global().async(group: done) {
                try? otherVouchd.write { _ in
                    holding.signal()
                    release.wait()
                }
            }
            holding.wait()
            let error = try #require(throws: StoreUnavailable.self) { try store.createFix(try StoreFixtures.fix(), by: "maria") }
            release.signal()
            done.wait()
            #expect(error.reason == .busy(heldBy: .anotherVouchd))
            #expect(error.cause.hasPrefix("PostgreSQL error 55P03"), "the log keeps what PostgreSQL said: \(error.cause)")
        }
    }

    @Test func readsAndWritesOnAPostgresDatabaseThatTurnsAwayEveryConnectionAreUnreachable() throws {
        try PostgresTestDatabase.run { server in
            let store = try RelationalStore(database: try server.makeDatabase())
            _ = try store.createFix(try StoreFixtures.fix(), by: "maria")
            #expect(try store.fix("tv-channel-selector-labels") != nil)
            // On the server's own database: PostgreSQL refuses to turn connections away from the database one is on.
            let administrator = try PostgresConnection(url: try PostgresTestDatabase.serverURL())
            // As a server going away would: every session ends and no new one is let in.
            try administrator.execute("ALTER DATABASE \(server.name) ALLOW_CONNECTIONS false")
            defer { try? administrator.execute("ALTER DATABASE \(server.name) ALLOW_CONNECTIONS true") }
            try administrator.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ?", [.text(server.name)])
            let deadline = Date().addingTimeInterval(10)
            while try administrator.scalar("SELECT COUNT(*) FROM pg_stat_activity WHERE datname = ?", [.text(server.name)]) != 0, Date() < deadline {
                usleep(10_000)
            }
            let read = try #require(throws: StoreUnavailable.self) { try store.fix("tv-channel-selector-labels") }
            #expect(read.reason == .unreachable)
            let write = try #require(throws: StoreUnavailable.self) {
                try store.createTester(StoreFixtures.tester("t_0", keys: ["user-0"]), by: "maria")
            }
            #expect(write.reason == .unreachable)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aConstraintTheStoreDoesNotNameStaysTheDialectsError(backend: StoreBackend) throws {
        try backend.withStore { store in
            _ = try store.createFix(try StoreFixtures.fix(), by: "maria")
            try StoreFixtures.failCommits(of: store, afterInsertOn: "testers")
            let error = try #require(throws: (any Error).self) {
                try store.createTester(StoreFixtures.tester("t_0", keys: ["user-0"]), by: "maria")
            }
            #expect(!(error is StoreUnavailable))
            #expect(StoreFixtures.isViolation(error, of: .foreignKey))
        }
    }
}
