import Foundation
import Testing
import VouchCrypto
import VouchDomain
@testable import VouchServer
@testable import VouchServerKit
import VouchStore

/// Two commits may publish in either order; the snapshot and the token directory keep the newer state either way.
struct FeedSubscriberTests {
    func committed(_ revision: Int64, _ changes: [StoreChange]) -> CommittedChanges {
        CommittedChanges(revision: revision, committedAt: Date(), changes: changes, configuration: nil)
    }

    @Test func theSnapshotKeepsTheRuleOfTheLaterRevision() {
        let holder = SnapshotHolder()
        let newer = FlagRule(key: "tv-channel-selector-labels", state: .paused, revision: 1, version: 8)
        let older = FlagRule(key: "tv-channel-selector-labels", state: .testing, revision: 1, targetedKeys: ["user-1"], version: 7)
        holder.apply(committed(8, [.flagRule(newer)]))
        holder.apply(committed(7, [.flagRule(older)]))
        #expect(holder.snapshot.rules["tv-channel-selector-labels"] == newer)
        holder.apply(committed(9, [.outboxRowsAdded(1)]))
        #expect(holder.snapshot.rules["tv-channel-selector-labels"] == newer)
    }

    @Test func aRevokedTokenPublishedBeforeItsCreationStaysRevoked() {
        let directory = TokenDirectory()
        let secret = TokenDirectory.makeSecret()
        var token = TokenRecord(id: "tok_late", name: "ios-app", principalName: "ios-app", role: .sdk, secretSHA256: Digest.sha256(secret),
                                createdBy: "admin", createdAt: Date())
        var revoked = token
        revoked.revokedAt = Date()
        directory.apply(committed(3, [.tokenRevoked(revoked)]))
        directory.apply(committed(2, [.tokenAdded(token)]))
        #expect(directory.principal(forSecret: secret) == nil)
        #expect(directory.isRevoked(secret: secret))
        token.id = "tok_other"
        token.secretSHA256 = Digest.sha256("vch_other")
        directory.apply(committed(4, [.tokenAdded(token)]))
        #expect(directory.principal(forSecret: "vch_other")?.tokenID == "tok_other")
    }
}
