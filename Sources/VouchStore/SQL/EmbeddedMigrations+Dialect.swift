extension EmbeddedMigrations {
    /// The migrations of one database, from its folder under `Schema/` (`Schema/sqlite/`, `Schema/postgres/`).
    public static func all(for dialect: SQLDialect) -> [Migration] {
        switch dialect {
        case .sqlite: sqlite
        case .postgres: postgres
        }
    }
}
