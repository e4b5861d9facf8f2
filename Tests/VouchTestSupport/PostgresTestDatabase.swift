import Foundation
// Swift Testing is on the search path of test builds only; a release build of the whole package (`swift build -c
// release`) compiles this target too, without it, and then a missing server is an error rather than a skip.
#if canImport(Testing)
import Testing
#endif
import VouchStore

/// A fresh PostgreSQL database for one test: `try PostgresTestDatabase.run { server in … }` creates it, and drops it
/// (`WITH (FORCE)`, which ends the sessions still on it) once the body returns or throws.
///
/// The server comes from `VOUCH_TEST_POSTGRES_URL`, a libpq URL of a database the user may `CREATE DATABASE`
/// from. Without it the test is skipped, or fails when `VOUCH_REQUIRE_POSTGRES=1` (CI, where a skip would hide
/// that nothing ran). Uses only VouchStore's public API, so any test target can use it.
public final class PostgresTestDatabase {
    /// The test database's own URL.
    public let url: String
    public let name: String
    private let serverURL: String

    static let serverVariable = "VOUCH_TEST_POSTGRES_URL"

    struct ServerMissing: Error, CustomStringConvertible {
        var description: String {
            """
            VOUCH_REQUIRE_POSTGRES=1 but \(PostgresTestDatabase.serverVariable) is not set. Start a throwaway cluster \
            (initdb -D DIR -A trust -U vouch; pg_ctl -D DIR -o "-k DIR -c listen_addresses=''" start) and set \
            \(PostgresTestDatabase.serverVariable)='postgresql:///postgres?host=DIR&user=vouch'
            """
        }
    }

    /// Scoped rather than dropped in `deinit`: Swift may release an object right after its last use, which would drop
    /// the database under a connection still in use.
    /// - Parameter icuCollation: an ICU locale (`en-US`) for the database's default collation instead of the server's;
    ///   a test that must hold whatever locale a database was created with runs on one whose order is not bytewise.
    public static func run<T>(icuCollation: String? = nil, _ body: (PostgresTestDatabase) throws -> T) throws -> T {
        let server = try PostgresTestDatabase(serverURL: try serverURL(), icuCollation: icuCollation)
        defer { server.drop() }
        return try body(server)
    }

    private init(serverURL: String, icuCollation: String?) throws {
        self.serverURL = serverURL
        name = "vouch_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        // template0, since a database whose collation differs from its template's must be copied from that one.
        let collation = icuCollation.map { " TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE '\($0)'" } ?? ""
        try PostgresConnection(url: serverURL).execute("CREATE DATABASE \(name)\(collation)")
        url = Self.url(serverURL, database: name)
    }

    /// The server to create test databases on; skips (or fails) the running test when none is configured.
    public static func serverURL() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        if let serverURL = environment[serverVariable], !serverURL.isEmpty { return serverURL }
        if environment["VOUCH_REQUIRE_POSTGRES"] == "1" { throw ServerMissing() }
        let reason = "needs PostgreSQL (set \(serverVariable))"
        #if canImport(Testing)
        print("Skipped: \(Test.current?.name ?? "test") \(reason)")
        try Test.cancel(Comment(rawValue: reason))
        #else
        throw ServerMissing()
        #endif
    }

    private func drop() {
        try? PostgresConnection(url: serverURL).execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// The server's URL pointed at another database: a later `dbname` wins in both of libpq's forms.
    static func url(_ serverURL: String, database: String) -> String {
        guard serverURL.hasPrefix("postgres://") || serverURL.hasPrefix("postgresql://") else { return serverURL + " dbname=\(database)" }
        return serverURL + (serverURL.contains("?") ? "&" : "?") + "dbname=\(database)"
    }

    public func makeDatabase(writeLockLimits: PostgresWriteLockLimits = .init()) throws -> PostgresDatabase {
        try PostgresDatabase(url: url, writeLockLimits: writeLockLimits)
    }

    /// A connection of its own, beside the database's, for a test that watches or disturbs it.
    public func makeConnection() throws -> PostgresConnection {
        try PostgresConnection(url: url)
    }
}
