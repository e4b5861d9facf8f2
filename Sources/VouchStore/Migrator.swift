/// Applies the embedded migrations in order, each in its own transaction with its record.
///
/// On PostgreSQL several `vouchd` may start together on one database: the whole run holds a session advisory lock,
/// so one daemon migrates while the others wait, then find nothing left to do.
public struct Migrator: Sendable {
    public var migrations: [Migration]
    public var dialect: SQLDialect

    public init(migrations: [Migration], dialect: SQLDialect = .sqlite) {
        self.migrations = migrations.sorted { $0.version < $1.version }
        self.dialect = dialect
    }

    public init(dialect: SQLDialect = .sqlite) {
        self.init(migrations: EmbeddedMigrations.all(for: dialect), dialect: dialect)
    }

    /// The advisory lock key migrations hold on PostgreSQL ("vouch-mg" in ASCII), apart from the write lock's.
    static let postgresLockKey: Int64 = 0x766F_7563_682D_6D67

    public struct NewerDatabase: Error, Sendable, CustomStringConvertible {
        public var path: String
        public var databaseVersion: Int
        public var knownVersion: Int

        public var description: String {
            "the database \(path) was written by a newer vouchd (schema version \(databaseVersion); this vouchd knows up to \(knownVersion)). "
                + "Run the newer vouchd, or restore a backup taken before the upgrade."
        }
    }

    /// Brings the database up to date; refuses one written by a newer binary without changing it.
    /// - Returns: the versions applied now.
    @discardableResult
    public func migrate(_ database: any SQLDatabase) throws -> [Int] {
        try database.withWriter { connection in
            if dialect == .postgres { try connection.query("SELECT pg_advisory_lock(?)", [.integer(Self.postgresLockKey)]) }
            defer {
                if dialect == .postgres { _ = try? connection.query("SELECT pg_advisory_unlock(?)", [.integer(Self.postgresLockKey)]) }
            }
            try connection.execute("""
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    applied_at_ms BIGINT NOT NULL
                )
                """)
            let current = try connection.scalar("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") ?? 0
            let known = migrations.last?.version ?? 0
            if current > known {
                throw NewerDatabase(path: database.location, databaseVersion: current, knownVersion: known)
            }
            var applied: [Int] = []
            for migration in migrations where migration.version > current {
                try connection.transaction(immediate: true) { connection in
                    try connection.execute(migration.sql)
                    try connection.query(
                        "INSERT INTO schema_migrations (version, name, applied_at_ms) VALUES (?, ?, ?)",
                        [.int(migration.version), .text(migration.name), .integer(StoreClock.nowMilliseconds())])
                }
                applied.append(migration.version)
            }
            return applied
        }
    }

    /// The highest version recorded in the database.
    public static func currentVersion(of database: any SQLDatabase) throws -> Int {
        try database.read { try $0.scalar("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") ?? 0 }
    }
}
