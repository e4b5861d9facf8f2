import Foundation
import Testing
import VouchDomain
@testable import VouchStore

/// The web console's personal links, sessions and feedback drafts, on each database.
struct StoreConsoleTests {
    let time = StoreFixtures.time
    let key = "tv-channel-selector-labels"

    /// A 32-byte hash that starts with `first` and holds zero bytes: blobs, never C strings.
    func hash(_ first: UInt8) -> [UInt8] { [first, 0, 0] + Array(repeating: first, count: 28) + [0] }

    func link(_ id: String, of tester: String = "t_0", expiresInHours hours: Double = 24) -> TesterLink {
        TesterLink(id: id, testerID: tester, secretSHA256: hash(UInt8(id.utf8.last ?? 0)), createdBy: "maria", createdAt: time,
                   expiresAt: time.addingTimeInterval(hours * 3_600))
    }

    func session(_ first: UInt8, _ holder: ConsoleSession.Holder, idleFromMinute minute: Double = 0) -> ConsoleSession {
        ConsoleSession(idSHA256: hash(first), holder: holder, csrf: "csrf-\(first)", createdAt: time,
                       lastSeenAt: time.addingTimeInterval(minute * 60), expiresAt: time.addingTimeInterval(8 * 3_600))
    }

    @Test(arguments: StoreBackend.allCases)
    func linksAreCreatedForActiveTestersFoundByHashAndRevokedWithTheirSessions(backend: StoreBackend) throws {
        try backend.withStore { store in
            try StoreFixtures.fixInTesting(store, testers: 1)
            try store.createTesterLink(link("tl_2"), by: "maria")
            try store.createTesterLink(link("tl_1"), by: "maria")
            #expect(try store.testerLinks(of: "t_0").map(\.id) == ["tl_1", "tl_2"], "same creation time: by id")
            #expect(try store.testerLink(secretSHA256: hash(UInt8(ascii: "1"))) == link("tl_1"))
            #expect(try store.testerLink(secretSHA256: hash(9)) == nil)
            #expect(throws: StoreError.notFound(kind: "tester", id: "t_nobody")) { try store.createTesterLink(self.link("tl_3", of: "t_nobody"), by: "maria") }

            try store.createConsoleSession(session(1, .link(id: "tl_1", testerID: "t_0")), by: "maria", keepingAtMost: .init(perCredential: 100, perTester: 100))
            try store.createConsoleSession(session(2, .link(id: "tl_2", testerID: "t_0")), by: "maria", keepingAtMost: .init(perCredential: 100, perTester: 100))
            let revoked = try store.revokeTesterLink("tl_1", of: "t_0", by: "maria", at: time.addingTimeInterval(60))
            #expect(revoked.revokedAt == time.addingTimeInterval(60))
            #expect(try store.consoleSession(idSHA256: hash(1), at: time) == nil, "the link's session ended with it")
            #expect(try store.consoleSession(idSHA256: hash(2), at: time) == session(2, .link(id: "tl_2", testerID: "t_0")))
            #expect(throws: StoreConflict.self) { try store.revokeTesterLink("tl_1", of: "t_0", by: "maria", at: self.time) }
            #expect(throws: StoreError.notFound(kind: "link of tester t_other", id: "tl_2")) {
                try store.revokeTesterLink("tl_2", of: "t_other", by: "maria", at: self.time)
            }
            #expect(try !store.testerLinks(of: "t_0")[0].opens(at: time))
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func sessionsLastUntilTheirEndTheirLinksEndOrTheyGoStale(backend: StoreBackend) throws {
        try backend.withStore { store in
            try StoreFixtures.fixInTesting(store, testers: 1)
            try store.createToken(StoreFixtures.token("tok_staff", role: .admin), principal: nil, by: "admin")
            try store.createTesterLink(link("tl_short", expiresInHours: 1), by: "maria")
            let staff = session(1, .token(id: "tok_staff"))
            try store.createConsoleSession(staff, by: "maria", keepingAtMost: .init(perCredential: 100, perTester: 100))
            try store.createConsoleSession(session(2, .link(id: "tl_short", testerID: "t_0")), by: "maria", keepingAtMost: .init(perCredential: 100, perTester: 100))
            try store.createConsoleSession(session(3, .token(id: "tok_staff"), idleFromMinute: 30), by: "maria", keepingAtMost: .init(perCredential: 100, perTester: 100))
            #expect(try store.consoleSession(idSHA256: hash(1), at: time) == staff)
            #expect(try store.consoleSession(idSHA256: hash(1), at: time.addingTimeInterval(8 * 3_600)) == nil, "past its absolute end")
            #expect(try store.consoleSession(idSHA256: hash(2), at: time.addingTimeInterval(3_600)) == nil, "its link expired")

            try store.touchConsoleSession(idSHA256: hash(1), at: time.addingTimeInterval(45 * 60))
            #expect(try store.consoleSession(idSHA256: hash(1), at: time)?.lastSeenAt == time.addingTimeInterval(45 * 60))
            // Idle since before minute 40: session 2 (minute 0) and 3 (minute 30); session 1 was just seen.
            #expect(try store.deleteStaleConsoleSessions(at: time, idleBefore: time.addingTimeInterval(40 * 60)) == 2)
            #expect(try store.deleteStaleConsoleSessions(at: time.addingTimeInterval(8 * 3_600), idleBefore: time) == 1, "past its end")
            try store.createConsoleSession(staff, by: "maria", keepingAtMost: .init(perCredential: 100, perTester: 100))
            try store.deleteConsoleSession(idSHA256: hash(1))
            #expect(try store.consoleSession(idSHA256: hash(1), at: time) == nil)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func draftsAreSavedReplacedAndGoWithTheirSession(backend: StoreBackend) throws {
        try backend.withStore { store in
            try StoreFixtures.fixInTesting(store, testers: 1)
            try store.createToken(StoreFixtures.token("tok_staff", role: .admin), principal: nil, by: "admin")
            try store.createToken(StoreFixtures.token("tok_spare", role: .admin), principal: nil, by: "admin")
            try store.createTesterLink(link("tl_1"), by: "maria")
            try store.createConsoleSession(session(1, .link(id: "tl_1", testerID: "t_0")), by: "maria", keepingAtMost: .init(perCredential: 100, perTester: 100))
            try store.createConsoleSession(session(2, .token(id: "tok_staff")), by: "maria", keepingAtMost: .init(perCredential: 100, perTester: 100))

            try store.saveConsoleDraft(session: hash(1), fix: key, answers: #"{"verdict":"passed"}"#, at: time)
            try store.saveConsoleDraft(session: hash(1), fix: key, answers: #"{"verdict":"failed"}"#, at: time)
            try store.saveConsoleDraft(session: hash(1), fix: "other-fix", answers: "", at: time)
            #expect(try store.consoleDraft(session: hash(1), fix: key) == #"{"verdict":"failed"}"#)
            #expect(try store.consoleDraft(session: hash(1), fix: "other-fix") == "")
            try store.deleteConsoleDraft(session: hash(1), fix: "other-fix")
            #expect(try store.consoleDraft(session: hash(1), fix: "other-fix") == nil)

            try store.saveConsoleDraft(session: hash(2), fix: key, answers: "staff", at: time)
            _ = try store.revokeToken("tok_staff", by: "admin", at: time)
            #expect(try store.consoleDraft(session: hash(2), fix: key) == nil, "revoking the token ends its sessions and their drafts")
            _ = try store.withdrawTester("t_0", purgeFeedback: false, by: "maria", at: time)
            #expect(try store.consoleDraft(session: hash(1), fix: key) == nil, "withdrawal ends her link's sessions and their drafts")
            #expect(try store.testerLinks(of: "t_0").isEmpty)
            #expect(throws: StoreConflict.self) { try store.createTesterLink(self.link("tl_2"), by: "maria") }
        }
    }
}

/// Sign-ins through the organisation's identity provider: their one-use pre-sessions, and the sessions they start.
struct StoreIdentityProviderSessionTests {
    let time = StoreFixtures.time
    let fixtures = StoreConsoleTests()

    @Test(arguments: StoreBackend.allCases)
    func aPreSessionIsTakenOnceAndNotAfterItsEnd(backend: StoreBackend) throws {
        try backend.withStore { store in
            try store.createOIDCSignIn(idSHA256: fixtures.hash(1), next: "/console/fixes", expiresAt: time.addingTimeInterval(600))
            try store.createOIDCSignIn(idSHA256: fixtures.hash(2), next: "/console/", expiresAt: time.addingTimeInterval(600))
            #expect(try store.takeOIDCSignIn(idSHA256: fixtures.hash(1), at: time) == "/console/fixes")
            #expect(try store.takeOIDCSignIn(idSHA256: fixtures.hash(1), at: time) == nil, "used once")
            #expect(try store.takeOIDCSignIn(idSHA256: fixtures.hash(2), at: time.addingTimeInterval(600)) == nil, "ended")
            try store.createOIDCSignIn(idSHA256: fixtures.hash(3), next: "/console/", expiresAt: time.addingTimeInterval(60))
            #expect(try store.deleteStaleConsoleSessions(at: time.addingTimeInterval(61), idleBefore: time) == 1, "the sweep takes ended ones")
        }
    }

    /// A session of the person through the provider that lasts an hour from the real now: its writes confirm it then.
    func session(_ first: UInt8, _ id: String) -> ConsoleSession {
        ConsoleSession(idSHA256: fixtures.hash(first), holder: .identityProvider(sessionID: id, principal: "ana@example.org", role: .releaseManager),
                       csrf: "csrf", createdAt: time, lastSeenAt: time, expiresAt: Date().addingTimeInterval(3_600))
    }

    @Test(arguments: StoreBackend.allCases)
    func aSessionKeepsItsPrincipalAndRoleAndConfirmsItsWritesWhileItLasts(backend: StoreBackend) throws {
        try backend.withStore { store in
            try StoreFixtures.fixInTesting(store, testers: 1)
            try store.createConsoleSession(session(1, "oidc_1"), by: "ana@example.org", keepingAtMost: .init(perCredential: 2, perTester: 10))
            #expect(try store.consoleSession(idSHA256: fixtures.hash(1), at: time)?.holder == session(1, "oidc_1").holder)
            let requester = Requester(name: "ana@example.org", credential: .identityProvider(sessionID: "oidc_1"))
            try store.createTesterLink(fixtures.link("tl_1"), by: requester)
            // Two more sessions of the same person: the oldest ends, and its writes with it.
            for (first, id) in [(UInt8(2), "oidc_2"), (UInt8(3), "oidc_3")] {
                try store.createConsoleSession(session(first, id), by: "ana@example.org", keepingAtMost: .init(perCredential: 2, perTester: 10))
            }
            #expect(try store.consoleSession(idSHA256: fixtures.hash(1), at: time) == nil)
            #expect(throws: CredentialEnded.self) { try store.createTesterLink(fixtures.link("tl_2"), by: requester) }
        }
    }
}
