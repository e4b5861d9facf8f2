import Foundation
import VouchCodec
import VouchCrypto
import VouchDomain
import VouchStore

/// Testers' personal console links. A link's address carries its secret and is given out once, when it is made;
/// only the secret's SHA-256 is kept (docs/console.md, "Personal links").
public struct LinkService: Sendable {
    /// A new link with the address that opens it.
    public struct Created: Sendable {
        public var link: TesterLink
        public var url: String
    }

    let store: any TesterLinkStore & TesterStore
    /// How long a link works unless its creator says otherwise.
    let defaultValidSeconds: Int
    let clock: @Sendable () -> Date

    /// What a link's validity may be: from an hour to 90 days.
    public static let validRange = 3_600...(90 * 86_400)

    public init(store: any TesterLinkStore & TesterStore, defaultValidSeconds: Int, clock: @escaping @Sendable () -> Date) {
        self.store = store
        self.defaultValidSeconds = defaultValidSeconds
        self.clock = clock
    }

    /// Makes a link for an active tester.
    /// - Parameters:
    ///   - validFor: how long it works, as a duration such as `7d`; the configured default when nil.
    ///   - base: the address the console is reached at (`https://vouch.example.com`), nil when unknown.
    public func create(for testerID: String, validFor: String?, base: String?, readErrors: [FieldError] = [], by principal: Principal) throws -> Created {
        try AccessDenied.unless(principal, may: .manageTesters)
        var errors = readErrors
        var seconds = defaultValidSeconds
        if let validFor {
            do { seconds = try DurationText.seconds(validFor, field: "valid_for", allowed: LinkService.validRange) } catch { errors.append(error) }
        }
        if !errors.isEmpty { throw ValidationFailure(errors) }
        guard let base else {
            throw StoreConflict("the link's address is unknown: set console.public_url, or send the request with a plain Host header")
        }
        let secret = SecureRandom.alphanumeric(count: 43)
        let now = clock()
        let link = TesterLink(id: "l_" + SecureRandom.alphanumeric(count: 16), testerID: testerID, secretSHA256: Digest.sha256(secret),
                              createdBy: principal.name, createdAt: now, expiresAt: now.addingTimeInterval(Double(seconds)))
        try store.createTesterLink(link, by: Requester(principal))
        return Created(link: link, url: base + "/console/link/" + secret)
    }

    public func links(of testerID: String, for principal: Principal) throws -> [TesterLink] {
        try AccessDenied.unless(principal, may: .manageTesters)
        guard try store.tester(testerID) != nil else { throw StoreError.notFound(kind: "tester", id: testerID) }
        return try store.testerLinks(of: testerID)
    }

    /// Revokes the link, which ends the console sessions it opened.
    public func revoke(_ id: String, of testerID: String, by principal: Principal) throws -> TesterLink {
        try AccessDenied.unless(principal, may: .manageTesters)
        return try store.revokeTesterLink(id, of: testerID, by: Requester(principal), at: clock())
    }
}
