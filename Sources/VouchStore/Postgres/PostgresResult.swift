import CPostgres

/// One libpq result, cleared when the object goes away.
final class PostgresResult {
    let handle: OpaquePointer

    init(_ handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        PQclear(handle)
    }

    var status: ExecStatusType { PQresultStatus(handle) }

    var isSuccess: Bool {
        [PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY, PGRES_SINGLE_TUPLE].contains(status)
    }

    /// The command tag (`INSERT 0 1`, `COMMIT`, `ROLLBACK`).
    var commandStatus: String { String(cString: PQcmdStatus(handle)) }

    /// How many rows an INSERT, UPDATE, DELETE or MERGE changed; nil for any other command, so that a SELECT leaves
    /// the count as it was, as SQLite's `sqlite3_changes` does.
    var changedRowCount: Int? {
        let verb = commandStatus.prefix { $0 != " " }
        guard ["INSERT", "UPDATE", "DELETE", "MERGE"].contains(verb) else { return nil }
        return Int(String(cString: PQcmdTuples(handle))) ?? 0
    }

    var rowCount: Int { Int(PQntuples(handle)) }

    var columnKinds: [PostgresColumnKind] {
        (0..<PQnfields(handle)).map { PostgresColumnKind(type: PQftype(handle, $0)) }
    }

    func row(_ index: Int, kinds: [PostgresColumnKind]) -> SQLRow {
        let row = Int32(index)
        var values: [SQLValue] = []
        values.reserveCapacity(kinds.count)
        for (column, kind) in zip(Int32(0)..., kinds) {
            if PQgetisnull(handle, row, column) == 1 {
                values.append(.null)
                continue
            }
            let length = Int(PQgetlength(handle, row, column))
            let value = PQgetvalue(handle, row, column)!.withMemoryRebound(to: UInt8.self, capacity: length) {
                kind.value(UnsafeBufferPointer(start: $0, count: length))
            }
            values.append(value)
        }
        return SQLRow(values: values)
    }

    func rows() -> [SQLRow] {
        let kinds = columnKinds
        return (0..<rowCount).map { row($0, kinds: kinds) }
    }

    /// A field of the error (`PG_DIAG_SQLSTATE`, `PG_DIAG_MESSAGE_PRIMARY`), nil when libpq has none.
    func errorField(_ field: Int32) -> String? {
        PQresultErrorField(handle, field).map { String(cString: $0) }
    }

    /// The whole error text; libpq's own errors (a lost connection) have no fields, only this.
    var errorMessage: String { String(cString: PQresultErrorMessage(handle)) }
}
