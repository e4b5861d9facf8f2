/// Which SQL a connection speaks, for the few statements the two databases write differently.
public enum SQLDialect: String, Sendable {
    case sqlite
    case postgres
}

/// What the store's SQL needs from one connection, whichever database is behind it (docs/storage.md).
///
/// Statements are written once, with SQLite's `?` and `?N` placeholders; the PostgreSQL connection rewrites them to
/// `$N` before preparing. A connection is used by one thread at a time: its database hands it to a single caller.
public protocol SQLConnection: AnyObject {
    var dialect: SQLDialect { get }
    /// Runs one or more statements that take no parameters and return nothing of interest.
    func execute(_ sql: String) throws
    /// Runs one statement with parameters and returns its rows.
    @discardableResult
    func query(_ sql: String, _ values: [SQLValue]) throws -> [SQLRow]
    /// Hands each row to `body` without collecting them all, for bulk reads (the OFREP snapshot at start).
    func forEachRow(_ sql: String, _ values: [SQLValue], _ body: (SQLRowCursor) throws -> Void) throws
    /// How many rows the last INSERT, UPDATE or DELETE changed.
    var changes: Int { get }
    /// Whether a transaction is open; false after the database ended one on its own (SQLite on a full disk).
    var isInTransaction: Bool { get }
    /// Opens a transaction that writes: it waits for, then holds, the one write lock of the whole database, so
    /// write transactions run one after another as they do on one SQLite file (docs/storage.md, "One writer").
    func beginWrite() throws
    /// Runs a statement whose answer the caller does not need (an INSERT whose count nobody reads, a SAVEPOINT). It
    /// may be sent later, together with the next statement whose answer is needed, or at `flush`: PostgreSQL sends
    /// them all in one pipeline, one round trip (docs/storage.md, "Deferred statements"). Its error is thrown by
    /// that later call, naming its own SQL; SQLite runs it at once. Read `changes` only right after the `query` it
    /// counts: whether a deferred statement has moved it yet differs between the two.
    func executeDeferred(_ sql: String, _ values: [SQLValue]) throws
    /// The same for a read whose rows only `check` looks at (a condition the write depends on): `check` runs when the
    /// answer arrives, and what it throws is thrown by that later call as the statement's error would be. The
    /// statements sent after it may have run by then, so the caller must roll back on that error, as on any other.
    func executeDeferred(_ sql: String, _ values: [SQLValue], checking check: @escaping ([SQLRow]) throws -> Void) throws
    /// Sends the deferred statements now and waits for their answers; throws the first one's error.
    func flush() throws
    /// Rows the open write transaction read and may reuse, each reuse confirmed by a deferred check; nil where reads
    /// cost no round trip (SQLite).
    var transactionReads: TransactionReadCache? { get }
}

extension SQLConnection {
    /// A connection that sends every statement as it comes (SQLite, in the same process) runs it at once.
    public func executeDeferred(_ sql: String, _ values: [SQLValue]) throws {
        try query(sql, values)
    }

    public func executeDeferred(_ sql: String, _ values: [SQLValue], checking check: @escaping ([SQLRow]) throws -> Void) throws {
        try check(try query(sql, values))
    }

    public func flush() throws {}

    public var transactionReads: TransactionReadCache? { nil }

    @discardableResult
    public func query(_ sql: String) throws -> [SQLRow] {
        try query(sql, [])
    }

    /// The first column of the first row, as an integer.
    public func scalar(_ sql: String, _ values: [SQLValue] = []) throws -> Int? {
        try query(sql, values).first?.optionalInt(0)
    }

    public func forEachRow(_ sql: String, _ body: (SQLRowCursor) throws -> Void) throws {
        try forEachRow(sql, [], body)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws (the first error wins).
    /// `immediate` takes the write lock at the start, so the body's reads see what it then writes over; otherwise the
    /// BEGIN is deferred and travels with the body's first statement.
    public func transaction<T>(immediate: Bool, _ body: (any SQLConnection) throws -> T) throws -> T {
        try transaction(begin: { if immediate { try beginWrite() } else { try executeDeferred("BEGIN", []) } }, body)
    }

    /// Runs `body` in the transaction `begin` opened: committed when it returns, rolled back when it throws.
    public func transaction<T>(begin: () throws -> Void, _ body: (any SQLConnection) throws -> T) throws -> T {
        try begin()
        do {
            let result = try body(self)
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}
