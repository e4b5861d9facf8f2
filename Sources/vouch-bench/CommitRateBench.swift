import Foundation
import VouchStore

/// The reference for feedback intake: SQLite's own durable commit rate on this disk, one single-row INSERT per
/// transaction from one connection, opened through VouchStore's `SQLiteDatabase` exactly as vouchd opens its file
/// (WAL, `synchronous=FULL`, `secure_delete`, foreign keys). vouchd's feedback intake is compared with this figure.
enum CommitRateBench {
    static func run(stateDirectory: String, seconds: Double, synchronous: SQLiteDatabase.Synchronous) throws {
        try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = (stateDirectory as NSString).appendingPathComponent("commit-rate.sqlite3")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let database = try SQLiteDatabase(path: path, synchronous: synchronous)
        // What the connection really runs with, read back (synchronous: 1 NORMAL, 2 FULL).
        let (journal, synchronousValue) = try database.withWriter { connection in
            try connection.execute("CREATE TABLE commits (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, payload TEXT NOT NULL, at_ms INTEGER NOT NULL)")
            return (try connection.query("PRAGMA journal_mode").first?.string(0) ?? "?", try connection.scalar("PRAGMA synchronous") ?? -1)
        }
        // About the size of a feedback row (ids, a dozen short fields).
        let payload = String(repeating: "p", count: 240)
        let clock = ContinuousClock()
        func commit(_ number: Int) throws {
            try database.write { connection in
                _ = try connection.query("INSERT INTO commits (id, payload, at_ms) VALUES (?, ?, ?)",
                                         [.text("c_\(number)"), .text(payload), .integer(StoreClock.nowMilliseconds())])
            }
        }
        // Warm-up: the first commits create the WAL and its index.
        var number = 0
        let warmUpEnd = clock.now + .milliseconds(300)
        while clock.now < warmUpEnd {
            try commit(number)
            number += 1
        }
        let warmUp = number
        var latencies: [Double] = []
        latencies.reserveCapacity(Int(seconds * 10_000))
        let start = clock.now
        let end = start + .milliseconds(Int(seconds * 1_000))
        var now = start
        while now < end {
            try commit(number)
            number += 1
            let after = clock.now
            latencies.append(Report.milliseconds(after - now))
            now = after
        }
        let elapsed = Report.milliseconds(now - start) / 1_000
        let measured = number - warmUp
        // Every commit is in the file: the count read back must match.
        let stored = try database.read { try $0.scalar("SELECT COUNT(*) FROM commits") } ?? -1
        guard stored == number else { throw BenchError("the file holds \(stored) rows, \(number) commits were made") }
        let sorted = latencies.sorted()
        func percentile(_ p: Double) -> Double { sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        Report.line("SQLite reference journal_mode, synchronous (2 = FULL)", "\(journal), \(synchronousValue)")
        Report.line("SQLite reference commits", String(measured))
        Report.line("SQLite reference seconds", Report.fixed(elapsed, 3))
        Report.line("SQLite reference rows read back", String(stored))
        Report.line("SQLite reference commits per second", Report.fixed(Double(measured) / elapsed))
        Report.line("SQLite reference commit latency p50 ms", Report.fixed(percentile(0.5), 3))
        Report.line("SQLite reference commit latency p99 ms", Report.fixed(percentile(0.99), 3))
    }
}
