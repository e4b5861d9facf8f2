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
}
