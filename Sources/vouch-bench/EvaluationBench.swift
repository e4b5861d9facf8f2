import Foundation
import VouchDomain

/// In-process cost of `EvaluationSnapshot.evaluate(flag:targetingKey:)`, the work OFREP does per flag.
enum EvaluationBench {
    /// Precomputed inputs: flag key and targeting key per call, cycled through.
    struct Inputs {
        var flags: [String]
        var targetingKeys: [String]
    }

    /// 65,536 random (flag, targeting key) pairs, cycled through. Each is a fresh String with its own storage, as a key
    /// parsed from a request is: sharing the snapshot's own String objects would let `==` succeed on identity alone.
    static let inputCount = 1 << 16
    static let rounds = 5

    /// - Parameter loaded: the rules as vouchd loads them (`RelationalStore.flagRules()`, every String its own allocation);
    ///   nil evaluates the generated rules, whose sets share the population's String objects (kinder to the caches).
    static func run(_ workload: Workload, calls: Int, loaded: [FlagRule]?) {
        Report.line("Workload fixes", String(workload.rules.count))
        Report.line("Workload targeted keys (fix, key pairs)", String(workload.actualTargetCount))
        Report.line("Workload distinct targeting keys", String(workload.population.count))
        Report.line("Sample flag key", workload.rules.first { $0.state == .testing }?.key ?? "")
        Report.line("Workload states", FixState.allCases.map { "\($0.rawValue)=\(workload.count($0))" }.joined(separator: " "))

        var random = SplitMix64(seed: 42)
        // The headline mix: any existing flag, half the time a key the flag targets (when it has any), else any user.
        let mixed = inputs(workload, &random) { _ in true }

        let rules = loaded ?? workload.rules
        Report.line("In-process evaluation snapshot source", loaded == nil ? "generated in memory" : "RelationalStore.flagRules(), as vouchd loads it")
        let snapshot = EvaluationSnapshot(rules: rules)
        let (wall, cpu, total) = measureRounds(snapshot, mixed, calls: calls)
        Report.line("In-process evaluation calls", String(total))
        Report.line("In-process evaluation rounds ns per call", Report.list(wall))
        Report.line("In-process evaluation ns per call (median)", Report.fixed(Report.median(wall)))
        // The thread's own CPU time: when it is well below the wall-clock figure, other processes took the CPU during the run.
        Report.line("In-process evaluation thread CPU ns per call (median)", Report.fixed(Report.median(cpu)))

        // What the loop itself costs: reading both inputs' first bytes, no evaluation. Included in the figures above;
        // a server pays it differently (its keys were just parsed, so they are in cache).
        Report.line("In-process loop overhead without evaluation, ns per call", Report.fixed(measureInputsOnly(mixed, calls: calls / 5)))

        // By path, to see where the time goes.
        let paths: [(String, (FlagRule) -> Bool, Bool)] = [
            ("testing, key targeted", { $0.state.isTargetedOnly && !$0.targetedKeys.isEmpty }, true),
            ("testing, key not targeted", { $0.state.isTargetedOnly }, false),
            ("releasing, bucketed", { $0.state == .releasing }, false),
            ("released", { $0.state == .released }, false),
            ("disabled", { [.draft, .paused, .rolledBack, .abandoned].contains($0.state) }, false),
        ]
        let pathCalls = max(1, calls / 10)
        for (name, filter, targeted) in paths {
            let pathInputs = inputs(workload, &random, targetedShare: targeted ? 1 : 0, where: filter)
            let ns = measure(snapshot, pathInputs, calls: pathCalls)
            Report.line("In-process evaluation ns per call, \(name)", Report.fixed(ns))
        }

        if loaded != nil {
            // The same rules as generated in memory: the sets share the population's String objects, allocated in order.
            // The gap to the headline is what the loaded snapshot's memory layout costs.
            let generated = EvaluationSnapshot(rules: workload.rules)
            let (wall, _, _) = measureRounds(generated, mixed, calls: calls / 2)
            Report.line("In-process evaluation ns per call, snapshot generated in memory (median)", Report.fixed(Report.median(wall)))
        }
    }

    /// A warm-up, then `rounds` measured rounds: wall-clock and thread CPU nanoseconds per call, and the calls made.
    static func measureRounds(_ snapshot: EvaluationSnapshot, _ inputs: Inputs, calls: Int) -> ([Double], [Double], Int) {
        let perRound = max(1, calls / rounds)
        _ = measure(snapshot, inputs, calls: min(perRound, 2_000_000))
        var wall: [Double] = []
        var cpu: [Double] = []
        for _ in 0..<rounds {
            let cpuStart = threadCPUNanoseconds()
            wall.append(measure(snapshot, inputs, calls: perRound))
            cpu.append(Double(threadCPUNanoseconds() - cpuStart) / Double(perRound))
        }
        return (wall, cpu, perRound * rounds)
    }

    static func inputs(_ workload: Workload, _ random: inout SplitMix64, targetedShare: Double = 0.5,
                       where filter: (FlagRule) -> Bool) -> Inputs {
        let candidates = workload.rules.filter(filter)
        var flags: [String] = []
        var keys: [String] = []
        flags.reserveCapacity(inputCount)
        keys.reserveCapacity(inputCount)
        for _ in 0..<inputCount {
            let rule = candidates[Int.random(in: 0..<candidates.count, using: &random)]
            flags.append(fresh(rule.key))
            if !rule.targetedKeys.isEmpty && Double.random(in: 0..<1, using: &random) < targetedShare {
                // A deterministic pick from the set: its n-th element.
                let offset = Int.random(in: 0..<rule.targetedKeys.count, using: &random)
                keys.append(fresh(rule.targetedKeys[rule.targetedKeys.index(rule.targetedKeys.startIndex, offsetBy: offset)]))
            } else {
                var key = workload.population[Int.random(in: 0..<workload.population.count, using: &random)]
                if targetedShare == 0 {
                    while rule.targetedKeys.contains(key) { key = workload.population[Int.random(in: 0..<workload.population.count, using: &random)] }
                }
                keys.append(fresh(key))
            }
        }
        return Inputs(flags: flags, targetingKeys: keys)
    }

    @inline(never)
    static func measureInputsOnly(_ inputs: Inputs, calls: Int) -> Double {
        let mask = inputCount - 1
        var checksum = 0
        let clock = ContinuousClock()
        let start = clock.now
        inputs.flags.withUnsafeBufferPointer { flags in
            inputs.targetingKeys.withUnsafeBufferPointer { keys in
                for call in 0..<calls {
                    let index = call & mask
                    checksum &+= Int(flags[index].utf8.first ?? 0) &+ Int(keys[index].utf8.first ?? 0)
                }
            }
        }
        let elapsed = clock.now - start
        Checksum.fold(checksum)
        return Report.nanoseconds(elapsed) / Double(calls)
    }

    /// An equal String with storage of its own.
    static func fresh(_ text: String) -> String { String(decoding: Array(text.utf8), as: UTF8.self) }

    /// Nanoseconds per call over `calls` evaluations; the results are folded into a checksum that is printed,
    /// so the optimizer cannot drop the calls.
    @inline(never)
    static func measure(_ snapshot: EvaluationSnapshot, _ inputs: Inputs, calls: Int) -> Double {
        let mask = inputCount - 1
        var checksum = 0
        let clock = ContinuousClock()
        let start = clock.now
        inputs.flags.withUnsafeBufferPointer { flags in
            inputs.targetingKeys.withUnsafeBufferPointer { keys in
                for call in 0..<calls {
                    let index = call & mask
                    if let outcome = snapshot.evaluate(flag: flags[index], targetingKey: keys[index]) {
                        checksum &+= outcome.revision &+ (outcome.value ? 1 : 0) &+ (outcome.reason == .split ? 2 : 0)
                    } else {
                        checksum &-= 1
                    }
                }
            }
        }
        let elapsed = clock.now - start
        Checksum.fold(checksum)
        return Report.nanoseconds(elapsed) / Double(calls)
    }
}

/// CPU time consumed by the calling thread.
func threadCPUNanoseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return time.tv_sec * 1_000_000_000 + time.tv_nsec
}

/// Keeps results observable; printed once at the end of the run.
enum Checksum {
    nonisolated(unsafe) static var value = 0

    @inline(never)
    static func fold(_ value: Int) { Checksum.value &+= value }
}
