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

    /// Runs `body` with a fresh database of this kind that no migration has touched, for tests that migrate it in
    /// steps, as an upgrade does.
    func withUnmigratedDatabase(_ body: (any SQLDatabase, SQLDialect) throws -> Void) throws {
        switch self {
        case .sqlite:
            let directory = try TemporaryDirectory()
            try body(try SQLiteDatabase(path: directory.file("db.sqlite3")), .sqlite)
        case .postgres:
            try PostgresTestDatabase.run { server in try body(try server.makeDatabase(), .postgres) }
        }
    }

    /// Runs `body` with one store on a fresh, empty database of this kind.
    @discardableResult
    func withStore<T>(_ body: (RelationalStore) throws -> T) throws -> T {
        try withDatabase { open in try body(try open()) }
    }
}
