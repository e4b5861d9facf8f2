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
            return try PostgresTestDatabase.run { server in
                try body { try RelationalStore(database: try server.makeDatabase()) }
            }
        }
    }
}
