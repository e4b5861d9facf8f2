import Foundation
import Testing
import VouchCrypto
import VouchDomain
import VouchServices
import VouchStore
import VouchTestSupport
@testable import VouchServer

/// Two applications on one PostgreSQL database stand for two vouchd: what one commits reaches the other's
/// snapshot and token directory by itself, woken by NOTIFY (docs/storage.md, "Several vouchd").
struct ClusterFollowerTests {
    let key = "tv-channel-selector-labels"
    let time = StoreClock.date(StoreClock.nowMilliseconds())

    func application(_ database: PostgresTestDatabase) throws -> VouchApplication {
        try VouchApplication(store: try RelationalStore(database: try database.makeDatabase()), logger: Logger(level: .error, sink: { _ in }))
    }

    /// Waits up to `seconds` for `condition`; the time it took, or nil.
    func waited(upTo seconds: Double, _ condition: () -> Bool) -> Double? {
        let start = Date()
        while Date().timeIntervalSince(start) < seconds {
            if condition() { return Date().timeIntervalSince(start) }
            usleep(2_000)
        }
        return condition() ? Date().timeIntervalSince(start) : nil
    }

    @Test func whatOneNodeCommitsTheOtherServesWithinASecond() throws {
        try PostgresTestDatabase.run { database in
            let first = try application(database)
            let second = try application(database)
            #expect(second.follower != nil, "a node on PostgreSQL follows the others")
            second.startServices()
            defer { second.stopServices() }
            let fix = Fix(key: try FixKey(validating: key), title: "Label channel logos", uiArea: "TV channel selector", platforms: [.ios],
                          author: "maria", createdAt: time, updatedAt: time)
            _ = try first.store.createFix(fix, by: "maria")
            _ = try first.store.updateFix(key, action: .fixStart, by: "maria", note: nil) { try $0.applying(.start, at: self.time) }
            _ = try first.store.changeTargets(of: key, adding: ["user-1"], removing: [], by: "maria", at: time)
            let served = waited(upTo: 1) { second.snapshots.snapshot.evaluate(flag: key, targetingKey: "user-1")?.value == true }
            #expect(served != nil, "the second node did not serve the change within 1 s")
            print("Cluster follower: the second node served the change after \(Int((served ?? 1) * 1_000)) ms")
            #expect(second.snapshots.snapshot.revision == (try first.store.configurationRevision()))

            let secret = "vch_" + String(repeating: "a", count: 40)
            let token = TokenRecord(id: "tok_cluster", name: "ios-app", principalName: "ios-app", role: .sdk, secretSHA256: Digest.sha256(secret),
                                    createdBy: "admin", createdAt: time)
            try first.store.createToken(token, principal: nil, by: "admin")
            #expect(waited(upTo: 1) { second.tokens.principal(forSecret: secret) != nil } != nil, "the second node did not accept the new token")
            _ = try first.store.revokeToken("tok_cluster", by: "admin", at: time)
            #expect(waited(upTo: 1) { second.tokens.principal(forSecret: secret) == nil } != nil, "the second node still accepts a revoked token")
        }
    }
}
