import Foundation
import Synchronization
import Testing
import VouchTestSupport
@testable import VouchStore

struct MigratorTests {
    /// Several vouchd starting together on one empty PostgreSQL database: one migrates, the others wait for its
    /// lock and then find nothing left to do.
    @Test func daemonsStartingTogetherOnPostgreSQLMigrateOnce() throws {
        try PostgresTestDatabase.run { server in
            let databases = try (0..<4).map { _ in try server.makeDatabase() }
            let applied = Mutex<[[Int]]>([])
            let failures = Mutex<[String]>([])
            let group = DispatchGroup()
            for database in databases {
                group.enter()
                Thread {
                    defer { group.leave() }
                    do {
                        let versions = try Migrator(dialect: .postgres).migrate(database)
                        applied.withLock { $0.append(versions) }
                    } catch {
                        failures.withLock { $0.append(String(describing: error)) }
                    }
                }.start()
            }
            group.wait()
            #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
            let all = EmbeddedMigrations.postgres.map(\.version)
            #expect(applied.withLock { $0 }.sorted { $0.count > $1.count } == [all] + Array(repeating: [], count: 3))
            let recorded = try databases[0].read { try $0.query("SELECT version FROM schema_migrations ORDER BY version").map { $0.int(0) } }
            #expect(recorded == all)
        }
    }

    @Test func appliesEveryMigrationOnceWithItsRecord() throws {
        let directory = try TemporaryDirectory()
        let database = try SQLiteDatabase(path: directory.file("db.sqlite3"))
        let applied = try Migrator().migrate(database)
        #expect(applied == EmbeddedMigrations.sqlite.map(\.version))
        #expect(try Migrator().migrate(database).isEmpty)
        let recorded = try database.read { try $0.query("SELECT version, name FROM schema_migrations ORDER BY version") }
        #expect(recorded.map { $0.int(0) } == EmbeddedMigrations.sqlite.map(\.version))
        #expect(recorded.map { $0.string(1) } == EmbeddedMigrations.sqlite.map(\.name))
    }

    @Test func appliesOnlyNewMigrationsInOrder() throws {
        let directory = try TemporaryDirectory()
        let database = try SQLiteDatabase(path: directory.file("db.sqlite3"))
        let first = Migration(version: 1, name: "one", sql: "CREATE TABLE a (x INTEGER);")
        let second = Migration(version: 2, name: "two", sql: "CREATE TABLE b (y INTEGER);")
        #expect(try Migrator(migrations: [first]).migrate(database) == [1])
        #expect(try Migrator(migrations: [second, first]).migrate(database) == [2])
        #expect(try Migrator.currentVersion(of: database) == 2)
    }

    @Test func failedMigrationLeavesNoTraceAndNoRecord() throws {
        let directory = try TemporaryDirectory()
        let database = try SQLiteDatabase(path: directory.file("db.sqlite3"))
        let broken = Migration(version: 1, name: "broken", sql: "CREATE TABLE half (x INTEGER); CREATE TABLE oops (;")
        #expect(throws: SQLiteError.self) { try Migrator(migrations: [broken]).migrate(database) }
        #expect(try Migrator.currentVersion(of: database) == 0)
        let tables = try database.read { try $0.query("SELECT name FROM sqlite_master WHERE name = 'half'") }
        #expect(tables.isEmpty)
    }

    @Test func refusesDatabaseFromNewerBinaryWithoutChangingIt() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("db.sqlite3")
        let database = try SQLiteDatabase(path: path)
        try Migrator().migrate(database)
        let future = EmbeddedMigrations.sqlite.count + 1
        try database.write { try $0.query("INSERT INTO schema_migrations (version, name, applied_at_ms) VALUES (?, 'future', 0)", [.int(future)]) }
        do {
            try Migrator().migrate(database)
            Issue.record("a newer database was accepted")
        } catch let error as Migrator.NewerDatabase {
            #expect(error.databaseVersion == future)
            #expect(error.description.contains("newer vouchd"))
            #expect(error.description.contains(path))
        }
        #expect(throws: Migrator.NewerDatabase.self) { try RelationalStore(path: path) }
        #expect(try Migrator.currentVersion(of: database) == future)
    }

    @Test func usesWriteAheadLogFullSyncAndForeignKeys() throws {
        let directory = try TemporaryDirectory()
        let database = try SQLiteDatabase(path: directory.file("db.sqlite3"))
        let settings = try database.withWriter { connection in
            (try connection.query("PRAGMA journal_mode").first?.string(0), try connection.scalar("PRAGMA synchronous"),
             try connection.scalar("PRAGMA foreign_keys"))
        }
        #expect(settings.0 == "wal")
        #expect(settings.1 == 2)  // FULL
        #expect(settings.2 == 1)
    }
}
