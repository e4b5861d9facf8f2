import Foundation
import Synchronization
import Testing
import VouchTestSupport
@testable import VouchStore

struct PostgresDatabaseTests {
    @Test func writeTransactionsOfTwoDatabasesRunOneAfterTheOther() throws {
        try PostgresTestDatabase.run { server in
            // Two databases are two vouchd: each reads the counter and writes it plus one. Without the shared write
            // lock the second would read 0 before the first commits, and one increment would be lost.
            let first = try server.makeDatabase()
            let second = try server.makeDatabase()
            try first.write { try $0.execute("CREATE TABLE counter (n BIGINT NOT NULL); INSERT INTO counter VALUES (0)") }
            let firstHoldsTheLock = DispatchSemaphore(value: 0)
            let secondIsWaiting = DispatchSemaphore(value: 0)
            let done = DispatchGroup()
            let secondSaw = Mutex<Int?>(nil)
            DispatchQueue.global().async(group: done) {
                try? first.write { connection in
                    let n = try connection.scalar("SELECT n FROM counter") ?? -1
                    firstHoldsTheLock.signal()
                    secondIsWaiting.wait()
                    try connection.query("UPDATE counter SET n = ?", [.int(n + 1)])
                }
            }
            firstHoldsTheLock.wait()
            DispatchQueue.global().async(group: done) {
                try? second.write { connection in
                    let n = try connection.scalar("SELECT n FROM counter") ?? -1
                    secondSaw.withLock { $0 = n }
                    try connection.query("UPDATE counter SET n = ?", [.int(n + 1)])
                }
            }
            let sawWaiter = try Self.waitForAdvisoryLockWaiter(server)
            secondIsWaiting.signal()
            done.wait()
            #expect(sawWaiter)
            #expect(secondSaw.withLock { $0 } == 1)
            #expect(try first.read { try $0.scalar("SELECT n FROM counter") } == 2)
        }
    }

    /// Watches `pg_locks` until a session waits for an advisory lock (at most about 10 s).
    static func waitForAdvisoryLockWaiter(_ server: PostgresTestDatabase) throws -> Bool {
        let observer = try server.makeConnection()
        for _ in 0..<1_000 {
            if try observer.scalar("SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted") == 1 { return true }
            usleep(10_000)
        }
        return false
    }

    @Test func aWriteThatWaitsPastTheLockTimeoutFailsAsBusy() throws {
        try PostgresTestDatabase.run { server in
            let holder = try server.makeDatabase()
            let waiter = try server.makeDatabase(writeLockTimeoutMilliseconds: 100)
            let holding = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let done = DispatchGroup()
            DispatchQueue.global().async(group: done) {
                try? holder.write { _ in
                    holding.signal()
                    release.wait()
                }
            }
            holding.wait()
            let error = try #require(throws: PostgresError.self) { try waiter.write { try $0.execute("SELECT 1") } }
            release.signal()
            done.wait()
            #expect(error.isLockTimeout)
            #expect(!error.isConnectionFailure)
            // The refused write left no transaction behind: the next one goes through.
            #expect(try waiter.write { try $0.scalar("SELECT 1") } == 1)
        }
    }

    @Test func sixteenConcurrentGroupWritersAllCommitAndFailingOnesRollBackAlone() throws {
        try PostgresTestDatabase.run { server in
            let database = try server.makeDatabase()
            try database.write { try $0.execute("CREATE TABLE items (n BIGINT PRIMARY KEY)") }
            let failures = StoreFixtures.concurrentGroupWrites(on: database, writers: 16) { index, connection in
                // Writer 5 throws after its insert; writer 10 fails in the server (a duplicate key), which aborts the
                // whole transaction on PostgreSQL until its savepoint is rolled back.
                if index == 5 { throw RefusedOnPurpose() }
                if index == 10 { try connection.query("INSERT INTO items (n) VALUES (?)", [.int(index)]) }
            }
            #expect(failures == 2)
            let rows = try database.read { try $0.query("SELECT n FROM items ORDER BY n").map { $0.int(0) } }
            #expect(rows == (0..<16).filter { $0 != 5 && $0 != 10 })
        }
    }

    @Test func aReaderKilledMidReadFailsAsAConnectionFailureAndTheNextReadReconnects() throws {
        try PostgresTestDatabase.run { server in
            let database = try server.makeDatabase()
            let killer = try server.makeConnection()
            let error = try #require(throws: PostgresError.self) {
                try database.read { connection in
                    let pid = try connection.scalar("SELECT pg_backend_pid()") ?? 0
                    try Self.terminate(pid, using: killer)
                    return try connection.scalar("SELECT 1")
                }
            }
            #expect(error.isConnectionFailure)
            #expect(try database.read { try $0.scalar("SELECT 1") } == 1)
        }
    }

    @Test func idleConnectionsTheServerClosedAreReplacedWithoutAnError() throws {
        try PostgresTestDatabase.run { server in
            let database = try server.makeDatabase()
            let killer = try server.makeConnection()
            let readerPid = try database.read { try $0.scalar("SELECT pg_backend_pid()") ?? 0 }
            let writerPid = try database.write { try $0.scalar("SELECT pg_backend_pid()") ?? 0 }
            try Self.terminate(readerPid, using: killer)
            try Self.terminate(writerPid, using: killer)
            #expect(try database.read { try $0.scalar("SELECT pg_backend_pid()") } != readerPid)
            #expect(try database.write { try $0.scalar("SELECT pg_backend_pid()") } != writerPid)
            #expect(database.isReachable())
        }
    }

    /// Ends a session from another, as an administrator or a server restart would, and waits until it is gone.
    static func terminate(_ pid: Int, using connection: PostgresConnection) throws {
        try connection.query("SELECT pg_terminate_backend(CAST(? AS INTEGER))", [.int(pid)])
        for _ in 0..<1_000 {
            if try connection.scalar("SELECT COUNT(*) FROM pg_stat_activity WHERE pid = ?", [.int(pid)]) == 0 { return }
            usleep(10_000)
        }
    }

    @Test func aReadSeesOneSnapshotAndCannotWrite() throws {
        try PostgresTestDatabase.run { server in
            let database = try server.makeDatabase()
            try database.write { try $0.execute("CREATE TABLE items (n BIGINT PRIMARY KEY)") }
            let counts = try database.read { connection in
                let before = try connection.scalar("SELECT COUNT(*) FROM items")
                try database.write { try $0.query("INSERT INTO items (n) VALUES (1)") }
                return [before, try connection.scalar("SELECT COUNT(*) FROM items")]
            }
            #expect(counts == [0, 0])
            let error = try #require(throws: PostgresError.self) { try database.read { try $0.query("INSERT INTO items (n) VALUES (2)") } }
            #expect(error.sqlState == "25006")
        }
    }

    @Test func locationNamesTheDatabaseAndServerButNoPassword() throws {
        try PostgresTestDatabase.run { server in
            // The test cluster trusts local users, so a password is accepted and ignored.
            let database = try PostgresDatabase(url: server.url + (server.url.contains("://") ? "&" : " ") + "password=s3cret")
            #expect(database.location.hasPrefix("PostgreSQL database \(server.name) on "))
            #expect(!database.location.contains("s3cret"))
            #expect(database.isReachable())
        }
    }

    @Test func migrationsRunOnceAndTheSecondDaemonFindsNothingToDo() throws {
        try PostgresTestDatabase.run { server in
            let migrator = Migrator(migrations: [Migration(version: 1, name: "items", sql: "CREATE TABLE items (n BIGINT PRIMARY KEY)")], dialect: .postgres)
            #expect(try migrator.migrate(try server.makeDatabase()) == [1])
            let other = try server.makeDatabase()
            #expect(try migrator.migrate(other) == [])
            #expect(try Migrator.currentVersion(of: other) == 1)
        }
    }
}
