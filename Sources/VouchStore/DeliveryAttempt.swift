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

    public init(deliveryID: String, number: Int, at: Date, statusCode: Int?, error: String?, durationMilliseconds: Int, decision: DeliveryDecision) {
        self.deliveryID = deliveryID
        self.number = number
        self.at = at
        self.statusCode = statusCode
        self.error = error
        self.durationMilliseconds = durationMilliseconds
        self.decision = decision
    }
}
