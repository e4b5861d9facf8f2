import Foundation
import VouchDomain
import VouchStore

/// Writes the workload into `<state-dir>/vouch.sqlite3` (the file vouchd opens) in one transaction of direct inserts.
enum StorePopulator {
    static let databaseFileName = "vouch.sqlite3"

    static func databasePath(_ stateDirectory: String) -> String {
        (stateDirectory as NSString).appendingPathComponent(databaseFileName)
    }

    /// The rules from a populated state directory, read as vouchd reads them at start.
    static func load(_ stateDirectory: String) throws -> [FlagRule] {
        let path = databasePath(stateDirectory)
        guard FileManager.default.fileExists(atPath: path) else { throw BenchError("no database at \(path): run 'vouch-bench populate' first") }
        return try RelationalStore(path: path).flagRules()
    }

    static func populate(_ workload: Workload, stateDirectory: String) throws {
        try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = databasePath(stateDirectory)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let clock = ContinuousClock()
        let start = clock.now
        let store = try RelationalStore(path: path, synchronous: .normal)
        let now = StoreClock.nowMilliseconds()
        let rules = workload.rules
        let pausedFrom = workload.pausedFrom
        try store.database.write { connection in
            // One transaction of cached prepared statements; a page cache of 1 GiB keeps the tables' and indexes'
            // pages in memory until the commit, so the 100× scale of part 12 (10,000,000 targeted keys) is not
            // written to the WAL page by page as the default 2 MiB cache spills.
            try connection.execute("PRAGMA cache_size = -1048576")
            for (number, rule) in rules.enumerated() {
                let parts = rule.key.split(separator: ".")
                try connection.query(
                    """
                    INSERT INTO fixes (key, title, description, ui_area, platforms, wcag, expected_announcement, author, revision, state,
                        paused_from, rollout_percentage, created_at_ms, updated_at_ms)
                    VALUES (?, ?, NULL, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [.text(rule.key), .text("Label the \(parts[1]) controls (\(number))"), .text(String(parts[1])), .text(String(parts[0])),
                     .text("4.1.2"), .text("bench"), .int(rule.revision), .text(rule.state.rawValue), .optional(pausedFrom[rule.key]?.rawValue),
                     rule.state == .releasing ? .int(rule.rolloutPercentage) : .null, .integer(now), .integer(now)])
                for targetingKey in rule.targetedKeys {
                    try connection.query(
                        "INSERT INTO fix_targets (fix_key, targeting_key, added_by, added_at_ms) VALUES (?, ?, ?, ?)",
                        [.text(rule.key), .text(targetingKey), .text("bench"), .integer(now)])
                }
            }
        }
        let elapsed = clock.now - start
        Report.line("Populated database", path)
        Report.line("Populated fixes", String(rules.count))
        Report.line("Populated targeted keys", String(workload.actualTargetCount))
        Report.line("Populate time ms", Report.fixed(Report.milliseconds(elapsed)))
        Report.line("Populate peak RSS MiB", Report.fixed(Double(PeakMemory.kibibytes()) / 1024))
    }
}
