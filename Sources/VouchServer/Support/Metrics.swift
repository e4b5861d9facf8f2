import Synchronization

/// Counters for `/metrics`, in Prometheus' text format; atomics so the hot path takes no lock.
public final class Metrics: Sendable {
    // Atomic is not copyable, so one stored property per status class.
    private let informational = Atomic<Int>(0)
    private let successful = Atomic<Int>(0)
    private let redirected = Atomic<Int>(0)
    private let clientErrors = Atomic<Int>(0)
    private let serverErrors = Atomic<Int>(0)
    private let evaluations = Atomic<Int>(0)

    public init() {}

    func recordResponse(status: Int) {
        switch status / 100 {
        case 1: informational.add(1, ordering: .relaxed)
        case 2: successful.add(1, ordering: .relaxed)
        case 3: redirected.add(1, ordering: .relaxed)
        case 4: clientErrors.add(1, ordering: .relaxed)
        default: serverErrors.add(1, ordering: .relaxed)
        }
    }

    private func count(forClass statusClass: Int) -> Int {
        switch statusClass {
        case 1: informational.load(ordering: .relaxed)
        case 2: successful.load(ordering: .relaxed)
        case 3: redirected.load(ordering: .relaxed)
        case 4: clientErrors.load(ordering: .relaxed)
        default: serverErrors.load(ordering: .relaxed)
        }
    }

    func recordEvaluations(_ count: Int) {
        evaluations.add(count, ordering: .relaxed)
    }

    func text(snapshot: EvaluationSnapshotSummary) -> String {
        var lines: [String] = []
        lines.append("# HELP vouch_http_responses_total HTTP responses sent, by status class.")
        lines.append("# TYPE vouch_http_responses_total counter")
        for index in 1...5 {
            lines.append("vouch_http_responses_total{code=\"\(index)xx\"} \(count(forClass: index))")
        }
        lines.append("# HELP vouch_ofrep_evaluations_total Flags evaluated over OFREP.")
        lines.append("# TYPE vouch_ofrep_evaluations_total counter")
        lines.append("vouch_ofrep_evaluations_total \(evaluations.load(ordering: .relaxed))")
        lines.append("# HELP vouch_snapshot_generation Evaluation snapshots swapped in since start.")
        lines.append("# TYPE vouch_snapshot_generation gauge")
        lines.append("vouch_snapshot_generation \(snapshot.generation)")
        lines.append("# HELP vouch_fixes Fixes in the evaluation snapshot.")
        lines.append("# TYPE vouch_fixes gauge")
        lines.append("vouch_fixes \(snapshot.fixCount)")
        return lines.joined(separator: "\n") + "\n"
    }
}

struct EvaluationSnapshotSummary {
    var generation: UInt64
    var fixCount: Int
}
