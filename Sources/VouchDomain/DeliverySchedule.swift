import Foundation

/// What happened on one delivery attempt.
public enum DeliveryAttemptResult: Sendable, Equatable {
    /// The receiver answered; `retryAfterSeconds` is its `Retry-After`, if any.
    case answered(status: Int, retryAfterSeconds: Int?)
    case timedOut
    /// No answer: connection refused, DNS failure, TLS error…
    case failed(String)
    /// Vouch refused to send (a private address without `webhooks.allow_private_networks`).
    case refused(String)
}

/// What to do with a delivery after an attempt.
public enum DeliveryDecision: Sendable, Equatable {
    case succeeded
    case retry(at: Date)
    case dead(reason: String)
    /// 410 Gone: the receiver asked never to be called again; the delivery dies and the endpoint is disabled.
    case disableEndpoint(reason: String)
}

/// The retry rules of docs/contracts.md ("Webhooks") as a pure state machine: the clock and the randomness are passed in.
public struct DeliverySchedule: Sendable, Equatable {
    /// Waits before the 2nd, 3rd… attempt, in seconds.
    public var retryDelays: [Int]
    /// Each wait is spread by up to this fraction either way, so retries of many deliveries do not arrive together.
    public var jitterFraction: Double
    /// The longest `Retry-After` honoured.
    public var maxRetryAfterSeconds: Int

    public static let defaultDelays = [5, 300, 1_800, 7_200, 18_000, 36_000, 50_400, 72_000, 86_400]

    public init(retryDelays: [Int] = DeliverySchedule.defaultDelays, jitterFraction: Double = 0.1, maxRetryAfterSeconds: Int = 86_400) {
        self.retryDelays = retryDelays
        self.jitterFraction = jitterFraction
        self.maxRetryAfterSeconds = maxRetryAfterSeconds
    }

    /// The attempts a delivery gets in all: the first and one per retry delay.
    public var maxAttempts: Int { retryDelays.count + 1 }

    /// Decides after attempt number `attempt` (1 for the first).
    /// - Parameter random: a value in 0..<1 that picks the jitter.
    public func decide(after result: DeliveryAttemptResult, attempt: Int, now: Date, random: Double) -> DeliveryDecision {
        let retryAfter: Int?
        let reason: String
        switch result {
        case .answered(let status, let after):
            if (200...299).contains(status) { return .succeeded }
            if status == 410 { return .disableEndpoint(reason: "the receiver answered 410 Gone") }
            reason = (300...399).contains(status) ? "the receiver answered \(status), a redirect, which is not followed" : "the receiver answered \(status)"
            retryAfter = (status == 429 || status == 503) ? after : nil
        case .timedOut:
            reason = "the receiver did not answer in time"
            retryAfter = nil
        case .failed(let message):
            reason = message
            retryAfter = nil
        case .refused(let message):
            return .dead(reason: message)
        }
        guard attempt < maxAttempts else { return .dead(reason: "\(reason); gave up after \(attempt) attempts") }
        if let retryAfter {
            return .retry(at: now.addingTimeInterval(Double(min(max(retryAfter, 0), maxRetryAfterSeconds))))
        }
        let base = Double(retryDelays[attempt - 1])
        let spread = base * jitterFraction * (random * 2 - 1)
        return .retry(at: now.addingTimeInterval(max(0, base + spread)))
    }
}
