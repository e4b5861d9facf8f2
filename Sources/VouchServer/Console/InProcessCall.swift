import Synchronization
import VouchDomain

/// A call the console makes to the `/v1` API inside the process, as the signed-in person: the API's own checks,
/// validation, four-eyes rules and audit apply to the console exactly as to the CLI (docs/console.md, "One API").
///
/// Carried in a task-local value, never in the request: nothing that arrives from the network can set it.
struct InProcessCall: Sendable {
    var principal: Principal
    /// What a feedback sent this way is recorded as: `web`.
    var channel: FeedbackChannel

    @TaskLocal static var current: InProcessCall?

    /// In-process calls under way in the whole process. Every request reads `principal`, and while this is zero no
    /// thread can have a current call: reading the task-local value (a run-time lookup, a tenth of an OFREP
    /// evaluation's own work) is skipped then. A call counts itself before it binds `current` on its own thread.
    private static let underWay = Atomic<Int>(0)

    /// The principal of the call under way on this thread, if any.
    static var principal: Principal? {
        underWay.load(ordering: .relaxed) == 0 ? nil : current?.principal
    }

    /// Runs `body` as this call.
    func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        InProcessCall.underWay.add(1, ordering: .relaxed)
        defer { InProcessCall.underWay.subtract(1, ordering: .relaxed) }
        return try InProcessCall.$current.withValue(self, operation: body)
    }
}
