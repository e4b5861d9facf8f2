import Dispatch
import Foundation
import Synchronization
import Testing
import VouchConcurrency
import VouchCrypto
import VouchDomain
@testable import VouchHTTP
@testable import VouchServer
@testable import VouchServerKit
import VouchStore

/// The per-thread copies of the token cache and of the snapshot never let a thread see what another thread has
/// already seen replaced: a revoked token, or an older snapshot.
struct StripedCachesTests {
    /// Runs `body(0)` ... `body(count - 1)` on threads of their own (Dispatch may run them all on one thread on a
    /// machine with few cores), and waits for all of them.
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        let threads = (0..<count).map { index in
            group.enter()
            return Thread { body(index); group.leave() }
        }
        for thread in threads { thread.start() }
        group.wait()
    }

    func committed(_ revision: Int64, _ changes: [StoreChange]) -> CommittedChanges {
        CommittedChanges(revision: revision, committedAt: Date(), changes: changes, configuration: nil)
    }

    @Test func noThreadUsesATokenOnceItsRevocationHasReturned() {
        let directory = TokenDirectory()
        let secret = TokenDirectory.makeSecret()
        let token = TokenRecord(id: "tok_app", name: "ios-app", principalName: "a token name longer than fifteen bytes", role: .sdk,
                                secretSHA256: Digest.sha256(secret), createdBy: "admin", createdAt: Date())
        directory.apply(committed(1, [.tokenAdded(token)]))
        var revoked = token
        revoked.revokedAt = Date()
        let revocation = committed(2, [.tokenRevoked(revoked)])
        #expect(directory.principal(forSecret: secret)?.name == "a token name longer than fifteen bytes")
        let revokedAt = Atomic<Bool>(false)
        let lateAnswers = Atomic<Int>(0)
        let lookups = Atomic<Int>(0)
        StripedCachesTests.onThreads(9) { thread in
            if thread == 0 {
                while lookups.load(ordering: .relaxed) < 20_000 { usleep(100) }
                directory.apply(revocation)
                revokedAt.store(true, ordering: .sequentiallyConsistent)
                return
            }
            for _ in 0..<20_000 {
                let afterRevocation = revokedAt.load(ordering: .sequentiallyConsistent)
                let principal = directory.principal(forSecret: secret)
                lookups.add(1, ordering: .relaxed)
                if afterRevocation, principal != nil { lateAnswers.add(1, ordering: .relaxed) }
            }
        }
        #expect(lateAnswers.load(ordering: .relaxed) == 0)
        #expect(directory.principal(forSecret: secret) == nil)
    }

    @Test func noThreadEvaluatesAnOlderSnapshotThanOneAlreadyAnswered() {
        let holder = SnapshotHolder()
        let newest = Atomic<Int>(0)
        let regressions = Atomic<Int>(0)
        let writing = Atomic<Bool>(true)
        StripedCachesTests.onThreads(9) { thread in
            if thread == 0 {
                for version in 1...3_000 {
                    holder.update(FlagRule(key: "flag", state: .released, revision: version, version: Int64(version)))
                }
                writing.store(false, ordering: .sequentiallyConsistent)
                return
            }
            while writing.load(ordering: .relaxed) {
                let seenBefore = newest.load(ordering: .sequentiallyConsistent)
                let revision = holder.withSnapshot { Int($0.revision) }
                if revision < seenBefore { regressions.add(1, ordering: .relaxed) }
                _ = newest.max(revision, ordering: .sequentiallyConsistent)
            }
        }
        #expect(regressions.load(ordering: .relaxed) == 0)
        #expect(holder.withSnapshot { $0.revision } == 3_000)
    }
}
