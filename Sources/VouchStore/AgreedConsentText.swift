import Foundation
import VouchDomain

/// A consent text as kept once a tester agreed to it: the text, its SHA-256 and when it was first agreed to.
public struct AgreedConsentText: Sendable, Equatable {
    public var text: ConsentText
    public var sha256: [UInt8]
    public var firstAgreedAt: Date

    public init(text: ConsentText, sha256: [UInt8], firstAgreedAt: Date) {
        self.text = text
        self.sha256 = sha256
        self.firstAgreedAt = firstAgreedAt
    }
}
