import CPostgres

/// A statement whose answer nobody waits for, already prepared, held until the next statement whose answer is needed.
struct PostgresDeferredStatement {
    var sql: String
    var name: String
    var parameters: PostgresParameters
    /// Reads the statement's rows when its answer arrives; what it throws is the statement's error.
    var check: (([SQLRow]) throws -> Void)?
}

/// Deferred statements travel in libpq's pipeline mode: several statements and one Sync leave in one write, and their
/// answers come back together, so a transaction's writes cost the round trip of the read that follows them
/// (docs/storage.md, "Deferred statements").
extension PostgresConnection {
    /// Beyond this many the statements go at once: a pipeline written on a blocking socket must stay small enough that
    /// the server's answers, which it writes while the client is still sending, fit in the socket's buffers.
    static let deferredStatementLimit = 32

    /// Queues the statement (prepared now, the first time its text is seen) to be sent with the next one whose
    /// answer is needed.
    public func executeDeferred(_ sql: String, _ values: [SQLValue]) throws {
        try queue(sql, values, check: nil)
    }

    /// Queues a read whose rows only `check` looks at, to be sent with the next statement whose answer is needed.
    public func executeDeferred(_ sql: String, _ values: [SQLValue], checking check: @escaping ([SQLRow]) throws -> Void) throws {
        try queue(sql, values, check: check)
    }

    private func queue(_ sql: String, _ values: [SQLValue], check: (([SQLRow]) throws -> Void)?) throws {
        let parameters = PostgresParameters(values)
        let name = try preparedStatement(sql, parameters: parameters)
        deferredStatements.append(PostgresDeferredStatement(sql: sql, name: name, parameters: parameters, check: check))
        if deferredStatements.count >= Self.deferredStatementLimit { try flush() }
    }

    /// Sends the deferred statements and waits for their answers; throws the first one's error.
    public func flush() throws {
        guard !deferredStatements.isEmpty else { return }
        try pipeline(ending: nil)
    }

    /// Sends the deferred statements, then `last` when given, and one Sync, in one pipeline; reads every answer.
    ///
    /// A statement that fails makes the server skip the rest up to the Sync (libpq answers them
    /// `PGRES_PIPELINE_ABORTED`), as a failed statement aborts the rest of a transaction: the first error is the one
    /// thrown, with its own statement's SQL. A check that throws fails its statement the same way, though the server
    /// ran the statements after it: the caller's rollback undoes them. Inside a transaction block the Sync commits
    /// nothing.
    /// - Returns: the last statement's result.
    @discardableResult
    func pipeline(ending last: PostgresDeferredStatement?) throws -> PostgresResult {
        var batch = deferredStatements
        deferredStatements.removeAll()
        if let last { batch.append(last) }
        guard let first = batch.first else { throw PostgresError(sqlState: nil, message: "an empty pipeline was sent", sql: nil) }
        // A pipeline left half read cannot serve another statement: the connection is given up.
        func abandoned(_ sql: String) -> PostgresError {
            pipelineAbandoned = true
            return error(nil, sql: sql)
        }
        guard PQenterPipelineMode(handle) == 1 else { throw abandoned(first.sql) }
        for statement in batch {
            let sent = statement.parameters.withArguments { values, lengths, formats in
                PQsendQueryPrepared(handle, statement.name, statement.parameters.count, values, lengths, formats, 0)
            }
            guard sent == 1 else { throw abandoned(statement.sql) }
        }
        guard PQpipelineSync(handle) == 1 else { throw abandoned(first.sql) }
        var failure: (any Error)?
        var lastResult: PostgresResult?
        for statement in batch {
            // Each statement's answer is followed by a null, which ends it.
            var answer: PostgresResult?
            while let raw = PQgetResult(handle) { answer = PostgresResult(raw) }
            guard let answer else { throw abandoned(statement.sql) }
            guard failure == nil, answer.status != PGRES_PIPELINE_ABORTED else { continue }
            do {
                lastResult = try checked(answer, sql: statement.sql)
                try statement.check?(answer.rows())
            } catch {
                failure = error
            }
        }
        let sync = PQgetResult(handle).map(PostgresResult.init)
        guard sync?.status == PGRES_PIPELINE_SYNC, PQexitPipelineMode(handle) == 1 else {
            let lost = abandoned(first.sql)
            throw failure ?? lost
        }
        if let failure { throw failure }
        guard let lastResult else { throw abandoned(first.sql) }
        return lastResult
    }
}
