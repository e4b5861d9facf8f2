import Foundation
import Testing
@testable import VouchStore
import VouchTestSupport

/// The databases the store's conformance tests run on: a test that takes a `StoreBackend` argument runs once on
/// each, so both implementations of `SQLDatabase` answer the same statements the same way.
enum StoreBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// The default collation of every PostgreSQL database a conformance test gets.
    static let languageCollation = "en-US"

    /// Runs `body` with a fresh, empty database of this kind, removed afterwards. `body` opens stores on it with the
    /// opener it is given: each call is another process's store on the same database.
    func withDatabase<T>(_ body: (_ open: () throws -> RelationalStore) throws -> T) throws -> T {
        switch self {
        case .sqlite:
            let directory = try TemporaryDirectory()
            return try withExtendedLifetime(directory) {
                try body { try RelationalStore(path: directory.file("vouch.sqlite3")) }
            }
        case .postgres:
            // A language collation (en-US orders "a_z" before "a-fix"), so every test checks that the store's text
            // compares bytewise as on SQLite whatever locale a database was created with (docs/storage.md).
            return try PostgresTestDatabase.run(icuCollation: StoreBackend.languageCollation) { server in
                try body { try RelationalStore(database: try server.makeDatabase()) }
            }
        }
    }

    /// What an upgrade does to rows written before it: on a fresh database of this kind, applies the migrations before
    /// the first one whose name contains `migration`, runs `seed` to write rows as the older schema had them, applies
    /// the rest, and hands the database to `check`.
    func acrossMigration(_ migration: String, seed: (any SQLDatabase) throws -> Void, check: (any SQLDatabase) throws -> Void) throws {
        func run(_ database: any SQLDatabase, _ dialect: SQLDialect) throws {
            let all = EmbeddedMigrations.all(for: dialect)
            let upgrade = try #require(all.first { $0.name.contains(migration) }, "no migration named \(migration)")
            try Migrator(migrations: all.filter { $0.version < upgrade.version }, dialect: dialect).migrate(database)
            try seed(database)
            try Migrator(migrations: all, dialect: dialect).migrate(database)
            try check(database)
        }
        switch self {
        case .sqlite:
            let directory = try TemporaryDirectory()
            try run(try SQLiteDatabase(path: directory.file("db.sqlite3")), .sqlite)
        case .postgres:
            try PostgresTestDatabase.run { server in try run(try server.makeDatabase(), .postgres) }
        }
    }

    /// Runs `body` with one store on a fresh, empty database of this kind.
    @discardableResult
    func withStore<T>(_ body: (RelationalStore) throws -> T) throws -> T {
        try withDatabase { open in try body(try open()) }
    }
}
