import Foundation
import VouchDomain
import VouchStore

/// Part 12, how cost grows: the in-process costs that depend on the number of fixes and targeted keys, on a database
/// from `populate` at one of the scales (docs: BENCHMARKS.md, "What each figure means", part 12).
///
/// Each figure is the median of `runs` measurements, every run printed: the snapshot loaded from SQLite and built (as
/// at start), one swap after a change (as `SnapshotHolder.update`), and the bulk evaluation of every flag for one
/// context (`evaluateAll`, what OFREP's bulk answer is made from). Nothing of the workload is generated here: the
/// rules come from the database, so the process holds one copy of them.
enum GrowthBench {
    /// Flags evaluated per bulk measurement at least: the bulk calls of one measurement are repeated up to it, so a
    /// measurement lasts about as long at every scale and the clock's resolution does not decide the small one.
    static let flagsPerMeasurement = 10_000_000

    static func run(stateDirectory: String, runs: Int) throws {
        let path = StorePopulator.databasePath(stateDirectory)
        guard FileManager.default.fileExists(atPath: path) else { throw BenchError("no database at \(path): run 'vouch-bench populate' first") }
        let store = try RelationalStore(path: path)
        let clock = ContinuousClock()

        // (a) Load and build, as vouchd at start; the previous snapshot is let go first, so one is held at a time.
        var loads: [Double] = []
        var builds: [Double] = []
        var snapshot: EvaluationSnapshot?
        for _ in 0..<runs {
            snapshot = nil
            let start = clock.now
            let rules = try store.flagRules()
            let loaded = clock.now
            snapshot = EvaluationSnapshot(rules: rules)
            let built = clock.now
            loads.append(Report.milliseconds(loaded - start))
            builds.append(Report.milliseconds(built - start))
        }
        guard var current = snapshot, let sample = current.rules.values.first(where: { !$0.targetedKeys.isEmpty }) else {
            throw BenchError("the database at \(path) holds no fix with targeted keys: run 'vouch-bench populate' first")
        }
        Report.line("Growth fixes loaded", String(current.rules.count))
        Report.line("Growth targeted keys loaded", String(current.rules.values.reduce(0) { $0 + $1.targetedKeys.count }))
        Report.line("Growth flagRules() alone runs ms", Report.list(loads, 2))
        Report.line("Growth snapshot load from SQLite and build runs ms", Report.list(builds, 2))
        Report.line("Growth snapshot load from SQLite and build ms (median)", Report.fixed(Report.median(builds), 2))

        // (b) One swap after a change: a rule gains a target, as SnapshotHolder.update replaces it. Each run changes
        // another rule, drawn from the keys in order.
        let keys = current.orderedKeys
        var random = SplitMix64(seed: 12)
        var swaps: [Double] = []
        for run in 0..<max(runs, 11) {
            guard var rule = current.rules[keys[Int.random(in: 0..<keys.count, using: &random)]] else { continue }
            rule.targetedKeys.insert("bench-growth-\(run)")
            let start = clock.now
            current = current.replacing(rule.key, with: rule)
            swaps.append(Report.milliseconds(clock.now - start))
        }
        Report.line("Growth snapshot swap runs ms", Report.list(swaps, 3))
        Report.line("Growth snapshot swap ms (median)", Report.fixed(Report.median(swaps), 3))

        // (c) Bulk evaluation for one context: every flag, in key order. The contexts alternate between targeting
        // keys some flags target and one none does.
        let contexts = [EvaluationBench.fresh(sample.targetedKeys.first!), "bench-growth-untargeted-user",
                        EvaluationBench.fresh(sample.targetedKeys.dropFirst().first ?? sample.targetedKeys.first!)]
        let calls = max(1, flagsPerMeasurement / max(1, keys.count))
        var bulk: [Double] = []
        var checksum = 0
        _ = current.evaluateAll(targetingKey: contexts[0])
        for _ in 0..<max(runs, 5) {
            let start = clock.now
            for call in 0..<calls {
                let outcomes = current.evaluateAll(targetingKey: contexts[call % contexts.count])
                checksum &+= outcomes.count &+ (outcomes.last?.value == true ? 1 : 0)
            }
            bulk.append(Report.milliseconds(clock.now - start) / Double(calls))
        }
        Checksum.fold(checksum)
        Report.line("Growth bulk evaluation calls per measurement", String(calls))
        Report.line("Growth bulk evaluation runs ms per call", Report.list(bulk, 3))
        Report.line("Growth bulk evaluation ms per call (median)", Report.fixed(Report.median(bulk), 3))
        Report.line("Growth bulk evaluation ns per flag (median)", Report.fixed(Report.median(bulk) * 1e6 / Double(keys.count), 1))
        Report.line("Growth peak RSS MiB", Report.fixed(Double(PeakMemory.kibibytes()) / 1024))
        Report.line("Checksum (ignore)", String(Checksum.value &+ Int(current.generation)))
    }
}

/// The process's peak resident memory (`VmHWM` in /proc/self/status), in KiB; 0 where it cannot be read.
enum PeakMemory {
    static func kibibytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
        return Int(line.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "") ?? 0
    }
}
