import Foundation
import Synchronization
import VouchStore

/// The PostgreSQL store's costs on a given server: durable single-row write transactions one after another (each
/// takes the shared write lock), the same from several threads through the group commit, and one-row read
/// transactions (REPEATABLE READ READ ONLY). The table it writes is dropped at the end; the database must exist.
enum PostgresStoreBench {
    static func run(url: String, seconds: Double, writers: Int) throws {
        let database = try PostgresDatabase(url: url)
        Report.line("PostgreSQL store location", database.location)
        try database.write { try $0.execute("DROP TABLE IF EXISTS vouch_bench_commits; CREATE TABLE vouch_bench_commits (seq BIGSERIAL PRIMARY KEY, payload TEXT NOT NULL, at_ms BIGINT NOT NULL)") }
        defer { _ = try? database.write { try $0.execute("DROP TABLE vouch_bench_commits") } }
        // About the size of a feedback row (ids, a dozen short fields).
        let payload = String(repeating: "p", count: 240)
        let insert: @Sendable (any SQLConnection) throws -> Void = { connection in
            try connection.query("INSERT INTO vouch_bench_commits (payload, at_ms) VALUES (?, ?)", [.text(payload), .integer(StoreClock.nowMilliseconds())])
        }
        let single = try measure(threads: 1, seconds: seconds) { try database.write(insert) }
        report("PostgreSQL single writer", single, seconds: seconds)
        let grouped = try measure(threads: writers, seconds: seconds) { try database.groupWrite(insert) }
        report("PostgreSQL group commit, \(writers) writers", grouped, seconds: seconds)
        let stored = try database.read { try $0.scalar("SELECT COUNT(*) FROM vouch_bench_commits") } ?? -1
        guard stored == single.count + grouped.count else { throw BenchError("the table holds \(stored) rows, \(single.count + grouped.count) writes succeeded") }
        Report.line("PostgreSQL rows read back", String(stored))
        let reads = try measure(threads: 1, seconds: seconds) {
            _ = try database.read { try $0.query("SELECT payload FROM vouch_bench_commits WHERE seq = ?", [.integer(1)]) }
        }
        report("PostgreSQL one-row read transaction", reads, seconds: seconds)
    }

    /// Runs `operation` on `threads` threads until `seconds` pass; returns every call's latency in milliseconds.
    private static func measure(threads: Int, seconds: Double, _ operation: @escaping @Sendable () throws -> Void) throws -> [Double] {
        let latencies = Mutex<[Double]>([])
        let failure = Mutex<(any Error)?>(nil)
        let end = ContinuousClock.now + .milliseconds(Int(seconds * 1_000))
        let finished = DispatchGroup()
        for _ in 0..<threads {
            finished.enter()
            Thread {
                var own: [Double] = []
                var before = ContinuousClock.now
                while before < end {
                    do { try operation() } catch {
                        failure.withLock { $0 = error }
                        break
                    }
                    let after = ContinuousClock.now
                    own.append(Report.milliseconds(after - before))
                    before = after
                }
                latencies.withLock { $0 += own }
                finished.leave()
            }.start()
        }
        finished.wait()
        if let error = failure.withLock({ $0 }) { throw error }
        return latencies.withLock { $0 }.sorted()
    }

    private static func report(_ label: String, _ sortedLatencies: [Double], seconds: Double) {
        Report.line("\(label) operations", String(sortedLatencies.count))
        Report.line("\(label) per second", Report.fixed(Double(sortedLatencies.count) / seconds))
        Report.line("\(label) latency p50 ms", Report.fixed(Report.percentile(sortedLatencies, 0.5), 3))
        Report.line("\(label) latency p99 ms", Report.fixed(Report.percentile(sortedLatencies, 0.99), 3))
    }
}
