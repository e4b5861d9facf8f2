import CPostgres
import Foundation

/// One PostgreSQL session over libpq, closed when the object goes away.
///
/// `@unchecked Sendable`: a connection is only ever used by one thread at a time, guaranteed by `PostgresDatabase`'s
/// writer mutex and reader pool mutex, which hand a connection to a single caller.
public final class PostgresConnection: SQLConnection, @unchecked Sendable {
    public var dialect: SQLDialect { .postgres }
    let handle: OpaquePointer
    /// How long `beginWrite` waits for the write lock, and how long the transaction may hold it idle.
    let writeLockLimits: PostgresWriteLockLimits
    /// Each statement as rewritten for PostgreSQL, with its prepared names, by the store's SQL text.
    private var statements: [String: PostgresStatement] = [:]
    private var preparedStatementCount = 0
    /// Statements waiting to be sent with the next one whose answer is needed (`executeDeferred`).
    var deferredStatements: [PostgresDeferredStatement] = []
    /// Set when a pipeline could not be sent or read to its end: the session is in no state for another statement.
    var pipelineAbandoned = false
    public private(set) var changes = 0
    /// Emptied when a transaction begins or ends (`beginWrite`, `execute` of COMMIT or ROLLBACK).
    public let transactionReads: TransactionReadCache? = TransactionReadCache()

    /// The advisory lock every write transaction takes ("vouch-wr" in ASCII), the same on every `vouchd`: write
    /// transactions across all of them run one at a time, as on one SQLite file (docs/storage.md, "One writer").
    static let writeLockKey: Int64 = 0x766F_7563_682D_7772

    /// Connects with `url`, a libpq URL (`postgres://…`) or `key=value` string, which overrides the defaults here.
    public init(url: String, writeLockLimits: PostgresWriteLockLimits = .init()) throws(PostgresError) {
        handle = try Self.connect(url)
        self.writeLockLimits = writeLockLimits
        // Notices ("relation already exists, skipping") would go to libpq's default printer on stderr, in the
        // middle of the daemon's logfmt lines; the store has no use for them.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        // UTC for any time the server formats; bytea in the hex form PostgresColumnKind reads; floats written
        // with as many digits as make them read back exactly (the default since PostgreSQL 12, but a server's
        // configuration can lower it).
        try executeAlone("SET TIME ZONE 'UTC'; SET bytea_output = 'hex'; SET extra_float_digits = 1")
    }

    deinit {
        PQfinish(handle)
    }

    private static func connect(_ url: String) throws(PostgresError) -> OpaquePointer {
        // Entries before `dbname` are defaults the URL may override (libpq: "array entries appearing before an
        // expanded dbname entry can be overridden by fields of the connection string"); those after it win.
        var settings = [
            ("fallback_application_name", "vouchd"),
            // A peer that vanished without closing (a crashed host) is noticed after about a minute.
            ("keepalives", "1"), ("keepalives_idle", "30"), ("keepalives_interval", "10"), ("keepalives_count", "3"),
        ]
        if ProcessInfo.processInfo.environment["PGCONNECT_TIMEOUT"] == nil { settings.append(("connect_timeout", "5")) }
        settings.append(("dbname", url))
        // Swift strings are UTF-8; the server converts from whatever the database uses.
        settings.append(("client_encoding", "UTF8"))
        let keywords = settings.map { strdup($0.0) }
        let values = settings.map { strdup($0.1) }
        defer { (keywords + values).forEach { free($0) } }
        let connection = PQconnectdbParams(keywords.map { UnsafePointer($0) } + [nil], values.map { UnsafePointer($0) } + [nil], 1)
        guard let connection, PQstatus(connection) == CONNECTION_OK else {
            let reason = connection.map { Self.oneLine(String(cString: PQerrorMessage($0))) } ?? "out of memory"
            PQfinish(connection)
            throw PostgresError(sqlState: nil, message: "cannot connect to PostgreSQL at \(PostgresConnectionString.redacted(url)): \(reason)",
                                sql: nil, connectionBroken: true)
        }
        return connection
    }

    /// libpq's messages span lines ("server closed the connection unexpectedly\n\tThis probably means…").
    static func oneLine(_ message: String) -> String {
        message.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Whether the session is still there: reads whatever the server sent while the connection sat idle, which is how
    /// a connection the server closed (a restart, `pg_terminate_backend`) is found out before a statement is sent.
    /// The server's last words (a FATAL message) and the end of the stream arrive as two reads, hence the loop.
    var isUsable: Bool {
        guard !pipelineAbandoned else { return false }
        for _ in 0..<4 {
            guard PQstatus(handle) == CONNECTION_OK else { return false }
            var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 0) > 0 else { return true }
            guard PQconsumeInput(handle) == 1 else { return false }
        }
        return PQstatus(handle) == CONNECTION_OK
    }

    /// Where the session is connected, for messages: "PostgreSQL database vouch on /run/postgresql:5432".
    var location: String {
        func text(_ value: UnsafeMutablePointer<CChar>?) -> String { value.map { String(cString: $0) } ?? "" }
        return "PostgreSQL database \(text(PQdb(handle))) on \(text(PQhost(handle))):\(text(PQport(handle)))"
    }

    func error(_ result: PostgresResult?, sql: String?) -> PostgresError {
        let broken = PQstatus(handle) != CONNECTION_OK
        guard let result else {
            return PostgresError(sqlState: nil, message: Self.oneLine(String(cString: PQerrorMessage(handle))), sql: sql, connectionBroken: true)
        }
        let message = result.errorField(vouch_pg_diag_message_primary) ?? Self.oneLine(result.errorMessage)
        return PostgresError(sqlState: result.errorField(vouch_pg_diag_sqlstate), message: message, sql: sql, connectionBroken: broken)
    }

    /// Takes ownership of what libpq returned and throws its error unless it succeeded.
    private func checked(_ raw: OpaquePointer?, sql: String) throws(PostgresError) -> PostgresResult {
        guard let raw else { throw error(nil, sql: sql) }
        return try checked(PostgresResult(raw), sql: sql)
    }

    func checked(_ result: PostgresResult, sql: String) throws(PostgresError) -> PostgresResult {
        guard result.isSuccess else { throw error(result, sql: sql) }
        if let changed = result.changedRowCount { changes = changed }
        return result
    }

    /// Runs one or more statements that take no parameters and return nothing of interest.
    public func execute(_ sql: String) throws {
        // Deferred statements go first, in their order. Before a rollback their errors do not matter: it undoes them
        // (and they must still run, since one of them may be the SAVEPOINT it rolls back to).
        if sql.hasPrefix("ROLLBACK") { try? flush() } else { try flush() }
        if sql == "COMMIT" || sql == "ROLLBACK" { transactionReads?.removeAll() }
        try executeAlone(sql)
    }

    /// `execute` on a session with nothing deferred (its settings when it opens, LISTEN), where only the server's
    /// errors can come.
    func executeAlone(_ sql: String) throws(PostgresError) {
        let result = try checked(PQexec(handle, sql), sql: sql)
        // COMMIT of a transaction in which a statement failed answers with the tag ROLLBACK and no error: the
        // caller must hear that nothing was saved.
        if result.commandStatus == "ROLLBACK", !sql.uppercased().contains("ROLLBACK") {
            throw PostgresError(sqlState: "25P02", message: "the transaction was rolled back, not committed: a statement in it had failed", sql: sql)
        }
    }

    /// Runs one statement with parameters and returns its rows; statements are prepared once per SQL text.
    @discardableResult
    public func query(_ sql: String, _ values: [SQLValue]) throws -> [SQLRow] {
        try run(sql, values).rows()
    }

    /// Runs a statement and hands each row to `body`. The rows stay in libpq's compact result while each is decoded
    /// in turn, so no `[SQLRow]` of the whole answer is ever built.
    public func forEachRow(_ sql: String, _ values: [SQLValue], _ body: (SQLRowCursor) throws -> Void) throws {
        let result = try run(sql, values)
        let kinds = result.columnKinds
        for index in 0..<result.rowCount {
            try body(SQLRowCursor(row: result.row(index, kinds: kinds)))
        }
    }

    private func run(_ sql: String, _ values: [SQLValue]) throws -> PostgresResult {
        let parameters = PostgresParameters(values)
        let name = try preparedStatement(sql, parameters: parameters)
        if !deferredStatements.isEmpty {
            // One round trip for the deferred statements and this one.
            return try pipeline(ending: PostgresDeferredStatement(sql: sql, name: name, parameters: parameters))
        }
        return try checked(parameters.withArguments { values, lengths, formats in
            PQexecPrepared(handle, name, parameters.count, values, lengths, formats, 0)
        }, sql: sql)
    }

    /// The name of `sql` prepared with these parameters' types, preparing it the first time.
    func preparedStatement(_ sql: String, parameters: PostgresParameters) throws -> String {
        var statement = statements[sql] ?? PostgresStatement(PlaceholderRewriter.rewrite(sql))
        if let name = statement.names[parameters.types] { return name }
        guard statement.parameterCount == parameters.types.count else {
            throw PostgresError(sqlState: nil, message: "the statement has \(statement.parameterCount) placeholders but \(parameters.types.count) values were given", sql: sql)
        }
        // The server parses a statement against the tables as they are: a deferred CREATE TABLE must have run first.
        try flush()
        let name = "vouch_\(preparedStatementCount)"
        _ = try checked(PQprepare(handle, name, statement.sql, parameters.count, parameters.types), sql: sql)
        preparedStatementCount += 1
        statement.names[parameters.types] = name
        statements[sql] = statement
        return name
    }

    /// Whether a transaction is open; false when the session is gone, which ended its transaction on the server.
    public var isInTransaction: Bool {
        switch PQtransactionStatus(handle) {
        case PQTRANS_IDLE, PQTRANS_UNKNOWN: false
        default: true
        }
    }

    /// Opens a transaction and waits for the write lock shared by every `vouchd` on the database, within the limits.
    public func beginWrite() throws {
        transactionReads?.removeAll()
        do {
            try execute(writeLockLimits.beginStatements(lockKey: Self.writeLockKey))
        } catch {
            // The transaction is open, or aborted, when the lock was not granted: end it, or the caller's next
            // BEGIN would find one already running.
            if isInTransaction { PQexec(handle, "ROLLBACK").map { PQclear($0) } }
            throw error
        }
    }

    /// Runs `body` in a `REPEATABLE READ READ ONLY` transaction: every statement in it sees the same snapshot. The
    /// BEGIN is deferred: it travels with the body's first statement (docs/storage.md, "Deferred statements").
    func readTransaction<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try transaction(begin: { try executeDeferred("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", []) }, body)
    }
}
