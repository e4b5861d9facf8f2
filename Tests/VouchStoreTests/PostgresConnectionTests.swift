import Testing
import VouchTestSupport
@testable import VouchStore

struct PostgresConnectionTests {
    static let values: [SQLValue] = [
        .null, .integer(0), .integer(-42), .integer(Int64.max), .integer(Int64.min), .real(-1.5), .real(0.1), .real(1e300),
        .text(""), .text("NHK, Taste, ausgewählt 🎧 — «日本語»"), .text("it's \"quoted\" ?1 \\x00"),
        .blob([]), .blob([0, 0, 255, 0, 1]), .blob(Array(0...255)),
    ]

    @Test func everyValueKindRoundTripsThroughATableAndAsAParameter() throws {
        try PostgresTestDatabase.run { server in
            let connection = try server.makeConnection()
            try connection.execute("CREATE TABLE kinds (id BIGINT PRIMARY KEY, i BIGINT, r DOUBLE PRECISION, t TEXT, b BYTEA)")
            for (id, value) in Self.values.enumerated() {
                var row: [SQLValue] = [.int(id), .null, .null, .null, .null]
                switch value {
                case .null: break
                case .integer: row[1] = value
                case .real: row[2] = value
                case .text: row[3] = value
                case .blob: row[4] = value
                }
                try connection.query("INSERT INTO kinds (id, i, r, t, b) VALUES (?, ?, ?, ?, ?)", row)
                let stored = try #require(try connection.query("SELECT i, r, t, b FROM kinds WHERE id = ?", [.int(id)]).first)
                #expect(stored.values == Array(row.dropFirst()))
                // Bound and selected straight back, with no column to give the type: the declared type is the answer's.
                #expect(try connection.query("SELECT ?", [value]).first?.values == [value])
            }
        }
    }

    @Test func nullParametersTakeTheirTypeFromTheContext() throws {
        try PostgresTestDatabase.run { server in
            let connection = try server.makeConnection()
            #expect(try connection.query("SELECT COALESCE(?, 7) + 1, ?", [.null, .null]).first?.values == [.integer(8), .null])
            // The same SQL with values is prepared again under their types; a typed value needs no context.
            #expect(try connection.query("SELECT COALESCE(?, 7) + 1, ?", [.integer(1), .text("x")]).first?.values == [.integer(2), .text("x")])
            #expect(try connection.query("SELECT ? IS NULL", [.text("x")]).first?.values == [.integer(0)])
            // A NULL where nothing tells its type is refused by name: the SQL must give one (`CAST(? AS TEXT) IS NULL`).
            let error = try #require(throws: PostgresError.self) { try connection.query("SELECT ? IS NULL", [.null]) }
            #expect(error.description == "PostgreSQL error 42P18: could not determine data type of parameter $1 (in: SELECT ? IS NULL)")
            #expect(try connection.query("SELECT CAST(? AS TEXT) IS NULL", [.null]).first?.values == [.integer(1)])
        }
    }

    @Test func numberedPlaceholdersMayRepeatAndPlaceholdersInQuotesStayText() throws {
        try PostgresTestDatabase.run { server in
            let connection = try server.makeConnection()
            #expect(try connection.query("SELECT ?1 + ?1, ?2, ?1", [.integer(20), .text("b")]).first?.values == [.integer(40), .text("b"), .integer(20)])
            let row = try #require(try connection.query("SELECT '?' AS \"a?\", ? -- ?\n, '?1'", [.integer(5)]).first)
            #expect(row.values == [.text("?"), .integer(5), .text("?1")])
        }
    }

    @Test func aWrongNumberOfValuesIsRefusedBeforeTheServerSeesIt() throws {
        try PostgresTestDatabase.run { server in
            let connection = try server.makeConnection()
            let error = try #require(throws: PostgresError.self) { try connection.query("SELECT ?, ?", [.integer(1)]) }
            #expect(error.description == "PostgreSQL error: the statement has 2 placeholders but 1 values were given (in: SELECT ?, ?)")
        }
    }

    @Test func serverTypesReadBackAsSQLiteWouldAnswer() throws {
        try PostgresTestDatabase.run { server in
            let connection = try server.makeConnection()
            let row = try #require(try connection.query("""
                SELECT true, false, 7::int2, 8::int4, 9::oid, 1.5::float4, SUM(n), AVG(n), 2.50::numeric, NULL::int8,
                       '\\x00ff'::bytea, 'NaN'::float8, TIMESTAMPTZ '2026-12-01 12:00:00+02', 'x'::varchar
                FROM (VALUES (1::int8), (2::int8)) AS numbers (n)
                """).first)
            #expect(row.values[0...9] == [.integer(1), .integer(0), .integer(7), .integer(8), .integer(9), .real(1.5), .integer(3), .real(1.5), .real(2.5), .null])
            #expect(row.values[10] == .blob([0, 255]))
            guard case .real(let notANumber) = row.values[11] else { Issue.record("NaN read as \(row.values[11])"); return }
            #expect(notANumber.isNaN)
            // Times are formatted in UTC, which every session sets.
            #expect(row.values[12...13] == [.text("2026-12-01 10:00:00+00"), .text("x")])
        }
    }

    @Test func changesCountsTheLastInsertUpdateOrDelete() throws {
        try PostgresTestDatabase.run { server in
            let connection = try server.makeConnection()
            try connection.execute("CREATE TABLE items (n BIGINT PRIMARY KEY)")
            try connection.query("INSERT INTO items (n) VALUES (1), (2), (3)")
            #expect(connection.changes == 3)
            try connection.query("UPDATE items SET n = n + 10 WHERE n < ?", [.integer(3)])
            #expect(connection.changes == 2)
            // A SELECT leaves the count as it was, as in SQLite.
            try connection.query("SELECT n FROM items")
            #expect(connection.changes == 2)
            try connection.query("DELETE FROM items WHERE n = ?", [.integer(99)])
            #expect(connection.changes == 0)
            try connection.query("INSERT INTO items (n) VALUES (?) ON CONFLICT (n) DO NOTHING RETURNING n", [.integer(3)])
            #expect(connection.changes == 0)
        }
    }

    @Test func aThrowingBodyRollsItsTransactionBack() throws {
        try PostgresTestDatabase.run { server in
            let connection = try server.makeConnection()
            try connection.execute("CREATE TABLE items (n BIGINT PRIMARY KEY)")
            #expect(throws: RefusedOnPurpose.self) {
                try connection.transaction(immediate: true) { connection in
                    try connection.query("INSERT INTO items (n) VALUES (1)")
                    throw RefusedOnPurpose()
                }
            }
            #expect(try connection.query("SELECT COUNT(*) FROM items").first?.int(0) == 0)
            #expect(!connection.isInTransaction)
        }
    }

    @Test func aCommitAfterAFailedStatementThrowsInsteadOfSilentlyRollingBack() throws {
        try PostgresTestDatabase.run { server in
            let connection = try server.makeConnection()
            try connection.execute("CREATE TABLE items (n BIGINT PRIMARY KEY)")
            let error = try #require(throws: PostgresError.self) {
                try connection.transaction(immediate: true) { connection in
                    try connection.query("INSERT INTO items (n) VALUES (1)")
                    // A caller that swallows a statement's error leaves PostgreSQL's transaction aborted.
                    _ = try? connection.query("INSERT INTO items (n) VALUES (1)")
                }
            }
            #expect(error.sqlState == "25P02")
            #expect(try connection.query("SELECT COUNT(*) FROM items").first?.int(0) == 0)
        }
    }

    @Test func aUniqueViolationNamesTheConstraintAndTheSQLButNotTheValues() throws {
        try PostgresTestDatabase.run { server in
            let connection = try server.makeConnection()
            try connection.execute("CREATE TABLE testers (contact TEXT CONSTRAINT testers_contact_unique UNIQUE)")
            try connection.query("INSERT INTO testers (contact) VALUES (?)", [.text("maria@example.org")])
            let error = try #require(throws: PostgresError.self) {
                try connection.query("INSERT INTO testers (contact) VALUES (?)", [.text("maria@example.org")])
            }
            #expect(error.isUniqueViolation)
            #expect(!error.isConnectionFailure)
            #expect(error.description == """
                PostgreSQL error 23505: duplicate key value violates unique constraint "testers_contact_unique" \
                (in: INSERT INTO testers (contact) VALUES (?))
                """)
        }
    }

    @Test func aFailedConnectionSaysWhereWithoutThePassword() throws {
        let url = "postgresql:///vouch?host=/nonexistent-vouch-socket-dir&user=vouch&password=s3cret"
        let error = try #require(throws: PostgresError.self) { try PostgresConnection(url: url) }
        #expect(error.isConnectionFailure)
        #expect(error.message.hasPrefix("cannot connect to PostgreSQL at postgresql:///vouch?host=/nonexistent-vouch-socket-dir&user=vouch&password=***: "))
        #expect(!error.description.contains("s3cret"))
    }
}
