import Foundation
import VouchDomain

/// The outcome of one attempt, as the worker reports it.
public struct DeliveryAttempt: Sendable {
    public var deliveryID: String
    public var number: Int
    public var at: Date
    public var statusCode: Int?
    public var error: String?
    public var durationMilliseconds: Int
    public var decision: DeliveryDecision
    /// The process that claimed the delivery (`Store.claimDeliveries`): the attempt is recorded only while that
    /// process still holds the delivery's lease. Nil records it whoever holds it.
    public var claimedBy: String?

    public init(deliveryID: String, number: Int, at: Date, statusCode: Int?, error: String?, durationMilliseconds: Int, decision: DeliveryDecision,
                claimedBy: String? = nil) {
        self.deliveryID = deliveryID
        self.number = number
        self.at = at
        self.statusCode = statusCode
        self.error = error
        self.durationMilliseconds = durationMilliseconds
        self.decision = decision
        self.claimedBy = claimedBy
    }
}

/// An attempt that came back after its delivery's lease had passed to another process (this one was frozen or cut
/// off for longer than the lease): the other process's attempt stands, this one is not recorded.
public struct LeaseLost: Error, Sendable, CustomStringConvertible {
    public var deliveryID: String
    /// What was leased: a webhook delivery, or a notification by email (which a withdrawal or an opt-out may also
    /// have cancelled meanwhile).
    public var leased = "webhook delivery"
    /// Whether it was cancelled meanwhile (its webhook deleted or disabled, her withdrawal, an opt-out) rather than
    /// taken over: expected, and nothing an operator must act on.
    public var cancelled = false

    public init(deliveryID: String, leased: String = "webhook delivery", cancelled: Bool = false) {
        self.deliveryID = deliveryID
        self.leased = leased
        self.cancelled = cancelled
    }

    public var description: String {
        cancelled ? "the \(leased) \(deliveryID) was cancelled before this attempt ended; the attempt is not recorded"
            : "the lease on \(leased) \(deliveryID) passed to another vouchd before this attempt ended; the attempt is not recorded"
    }
}
