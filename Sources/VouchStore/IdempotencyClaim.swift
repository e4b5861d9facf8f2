import Foundation
import VouchDomain

/// An `Idempotency-Key` as a principal sent it, with the fingerprint of the request it came with.
public struct IdempotencyClaim: Sendable {
    public var principal: String
    public var key: String
    public var requestSHA256: [UInt8]

    public init(principal: String, key: String, requestSHA256: [UInt8]) {
        self.principal = principal
        self.key = key
        self.requestSHA256 = requestSHA256
    }
}
