import Foundation
import VouchDomain

/// The consent texts testers agreed to, kept as they read them (docs/invitations.md, "Consent texts").
public protocol ConsentTextStore: Sendable {
    /// The text of a version in a language, as agreed to; nil when nobody agreed to it yet.
    func agreedConsentText(version: String, language: String) throws -> AgreedConsentText?
    /// Every text agreed to, by version and language.
    func agreedConsentTexts() throws -> [AgreedConsentText]
}
