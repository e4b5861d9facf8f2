import Foundation
import VouchDomain

/// Who a write is made for, and the credential the request came with.
///
/// Every write transaction made for a request confirms, under the write lock, that its credential still works
/// (`RelationalStore.confirm`): a revocation on another vouchd commits under the same lock, so once it committed no
/// later write for that token or link commits anywhere (docs/storage.md, "Revocation across nodes"). Writes vouchd
/// makes by itself (promotion, deliveries) have no credential; a string literal makes such a requester, for them and
/// for tests.
public struct Requester: Sendable, Equatable, ExpressibleByStringLiteral {
    public enum Credential: Sendable, Equatable {
        case token(id: String)
        case link(LinkUse)
        /// A console session started through the identity provider, by its own credential id (`oidc_…`).
        case identityProvider(sessionID: String)
    }

    /// The principal's name, as the audit log and `recorded_by` keep it.
    public var name: String
    public var credential: Credential?

    public init(name: String, credential: Credential?) {
        self.name = name
        self.credential = credential
    }

    public init(_ principal: Principal) {
        name = principal.name
        credential = if let link = principal.link { .link(link) } else if principal.viaIdentityProvider {
            .identityProvider(sessionID: principal.tokenID)
        } else {
            .token(id: principal.tokenID)
        }
    }

    public init(stringLiteral name: String) {
        self.init(name: name, credential: nil)
    }

    /// vouchd itself: the promotion timer, automatic pauses, deliveries.
    public static let daemon: Requester = "vouchd"

    /// How the principal acted, for the audit log: "token", "identity provider sign-in (oidc)", or
    /// "link l_… created by maria, opened signed in as maria"; nil for vouchd itself.
    public var via: String? {
        switch credential {
        case nil: return nil
        // Not the token's id: a tester's token id would tie her events together again after her erasure.
        case .token: return "token"
        case .identityProvider: return "identity provider sign-in (oidc)"
        case .link(let link):
            var words = "link \(link.id) created by \(link.createdBy)"
            if let staff = link.openedBy { words += ", opened in a browser signed in as \(staff)" }
            return words
        }
    }
}

/// A write refused because the token or personal link it came with was revoked, or ended, before it committed.
public struct CredentialEnded: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    /// The revoked token, so this process's copy of the tokens can stop accepting it at once.
    public var tokenID: String?

    public init(_ description: String, tokenID: String? = nil) {
        self.description = description
        self.tokenID = tokenID
    }
}

extension AuditEvent {
    /// An event made for `requester`: its name as the principal, and how it acted when through a personal link.
    init(at: Date, by requester: Requester, action: AuditAction, fixKey: String? = nil, subject: String? = nil, note: String? = nil,
         before: String? = nil, after: String? = nil) {
        self.init(at: at, principal: requester.name, action: action, fixKey: fixKey, subject: subject, note: note, before: before, after: after,
                  via: requester.via)
    }
}
