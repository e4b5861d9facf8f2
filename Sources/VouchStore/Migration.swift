/// One schema change from `Schema/NNNN_name.sql`; never edited once released.
public struct Migration: Sendable, Equatable {
    public var version: Int
    public var name: String
    public var sql: String

    /// The file the migration came from, such as `0001_initial.sql`.
    public var fileName: String {
        let number = String(version)
        return String(repeating: "0", count: max(0, 4 - number.count)) + number + "_" + name + ".sql"
    }
}
