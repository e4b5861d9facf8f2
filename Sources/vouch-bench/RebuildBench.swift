import Foundation
import VouchDomain
import VouchStore

/// How long a new OFREP snapshot takes at the workload's size: from rules in memory, from SQLite, and one swap.
enum RebuildBench {
    static let runs = 7
    static let swapRuns = 51

    static func run(_ workload: Workload, stateDirectory: String) throws {
        let clock = ContinuousClock()
        var kept: [EvaluationSnapshot] = []

        // (a) From the rules in memory, as VouchApplication does at start: dictionary by key, then the snapshot (which sorts the keys).
        var fromMemory: [Double] = []
        for _ in 0..<runs {
            let start = clock.now
            let snapshot = EvaluationSnapshot(rules: workload.rules)
            fromMemory.append(Report.milliseconds(clock.now - start))
            kept.append(snapshot)
        }
        Report.line("Snapshot build from memory runs ms", Report.list(fromMemory, 2))
        Report.line("Snapshot build from memory ms (median)", Report.fixed(Report.median(fromMemory), 2))
        kept.removeAll()

        // (b) Load the rules with RelationalStore.flagRules() and build, as at start (the database written by `populate`).
        let path = StorePopulator.databasePath(stateDirectory)
        guard FileManager.default.fileExists(atPath: path) else { throw BenchError("no database at \(path): run 'vouch-bench populate' first") }
        let store = try RelationalStore(path: path)
        var loadOnly: [Double] = []
        var fromStore: [Double] = []
        var loadedTargets = 0
        for _ in 0..<runs {
            let start = clock.now
            let rules = try store.flagRules()
            let loaded = clock.now
            let snapshot = EvaluationSnapshot(rules: rules)
            let built = clock.now
            loadOnly.append(Report.milliseconds(loaded - start))
            fromStore.append(Report.milliseconds(built - start))
            loadedTargets = snapshot.rules.values.reduce(0) { $0 + $1.targetedKeys.count }
        }
        guard loadedTargets == workload.actualTargetCount else {
            throw BenchError("the database holds \(loadedTargets) targeted keys, the workload \(workload.actualTargetCount): run populate again")
        }
        Report.line("Snapshot load from SQLite runs ms", Report.list(fromStore, 2))
        Report.line("Snapshot flagRules() alone ms (median)", Report.fixed(Report.median(loadOnly), 2))
        Report.line("Snapshot load from SQLite and build ms (median)", Report.fixed(Report.median(fromStore), 2))

        // (c) One swap after a change: `replacing(_:with:)` with one rule gaining a target, as SnapshotHolder.update does.
        var snapshot = EvaluationSnapshot(rules: workload.rules)
        var random = SplitMix64(seed: 7)
        var swaps: [Double] = []
        for run in 0..<swapRuns {
            var rule = workload.rules[Int.random(in: 0..<workload.rules.count, using: &random)]
            rule.targetedKeys.insert("bench-added-\(run)")
            let start = clock.now
            snapshot = snapshot.replacing(rule.key, with: rule)
            swaps.append(Report.milliseconds(clock.now - start))
        }
        Report.line("Snapshot swap replacing() ms (median of \(swapRuns))", Report.fixed(Report.median(swaps), 3))
        Report.line("Snapshot swap replacing() ms (max)", Report.fixed(swaps.max() ?? 0, 3))
        Report.line("Checksum (ignore)", String(Checksum.value &+ Int(snapshot.generation)))
    }
}
