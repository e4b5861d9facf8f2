import CPostgres

/// A statement rewritten for PostgreSQL and the names it is prepared under, one per list of parameter types
/// (a NULL has no type, so the same SQL may be prepared twice).
struct PostgresStatement {
    var sql: String
    var parameterCount: Int
    var names: [[Oid]: String] = [:]

    init(_ rewritten: PlaceholderRewriter.Rewritten) {
        sql = rewritten.sql
        parameterCount = rewritten.parameterCount
    }
}
