import Foundation
import Testing
import VouchDomain
@testable import VouchStore

/// Joining on each database: drafts found while they last and swept after, consent texts kept as agreed and never
/// replaced under the same version, and acceptance that keeps the text and makes her link in its one transaction.
struct StoreJoiningTests {
    let time = StoreFixtures.time
    let invitations = StoreInvitationTests()

    func draft(_ first: UInt8, expiresIn seconds: Double = 3_000) -> JoinDraft {
        JoinDraft(idSHA256: Array(repeating: first, count: 32), invitationID: "i_1", csrf: "token", consentVersion: "2026-12", consentLanguage: "ja",
                  answers: #"{"name":"Aiko"}"#, createdAt: time, expiresAt: time.addingTimeInterval(seconds))
    }

    func agreed(_ body: String) -> AgreedConsentText {
        AgreedConsentText(text: ConsentText(version: "2026-12", language: "ja", body: body), sha256: Array(body.utf8.prefix(32)) + [UInt8(body.count)],
                          firstAgreedAt: time)
    }

    @Test(arguments: StoreBackend.allCases)
    func draftsAreFoundWhileTheyLastAndSweptAfter(backend: StoreBackend) throws {
        try backend.withStore { store in
            _ = try store.createFix(try StoreFixtures.fix(), by: "maria")
            try store.createInvitation(invitations.invitation("i_1"), by: "maria")
            try store.createJoinDraft(draft(1))
            try store.createJoinDraft(draft(2, expiresIn: 60))
            #expect(try store.joinDraft(idSHA256: draft(1).idSHA256, at: time) == draft(1))
            try store.saveJoinDraft(idSHA256: draft(1).idSHA256, answers: #"{"name":"Aiko Sato"}"#)
            #expect(try store.joinDraft(idSHA256: draft(1).idSHA256, at: time)?.answers == #"{"name":"Aiko Sato"}"#)
            #expect(try store.joinDraft(idSHA256: draft(2).idSHA256, at: time.addingTimeInterval(60)) == nil, "a draft that ran out is not found")
            #expect(try store.deleteExpiredJoinDrafts(at: time.addingTimeInterval(60)) == 1)
            try store.deleteJoinDraft(idSHA256: draft(1).idSHA256)
            #expect(try store.joinDraft(idSHA256: draft(1).idSHA256, at: time) == nil)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func acceptingKeepsTheTextSheReadAndMakesHerLinkInOneTransaction(backend: StoreBackend) throws {
        try backend.withStore { store in
            _ = try store.createFix(try StoreFixtures.fix(), by: "maria")
            try store.createInvitation(invitations.invitation("i_1", uses: 3), by: "maria")
            let hash = invitations.hash(UInt8(ascii: "1"))
            let accepted = try store.acceptInvitation(secretSHA256: hash, at: time, consentText: agreed("Example Media runs it."),
                                                      makeTester: invitations.joining("t_aiko")) { tester in
                TesterLink(id: "l_1", testerID: tester.id, secretSHA256: Array(repeating: 7, count: 32), createdBy: tester.id, createdAt: self.time,
                           expiresAt: self.time.addingTimeInterval(86_400))
            }
            #expect(accepted.link?.testerID == "t_aiko")
            #expect(try store.testerLink(secretSHA256: Array(repeating: 7, count: 32))?.id == "l_1")
            #expect(try store.agreedConsentText(version: "2026-12", language: "ja") == agreed("Example Media runs it."))
            // The same text again is fine; other words under the same version are refused, and nothing of that join stays.
            _ = try store.acceptInvitation(secretSHA256: hash, at: time, consentText: agreed("Example Media runs it."),
                                           makeTester: invitations.joining("t_second", keys: ["user-2"]), makeLink: nil)
            #expect(throws: StoreConflict.self) {
                try store.acceptInvitation(secretSHA256: hash, at: self.time, consentText: self.agreed("Someone else runs it."),
                                           makeTester: self.invitations.joining("t_third", keys: ["user-3"]), makeLink: nil)
            }
            #expect(try store.tester("t_third") == nil)
            #expect(try store.invitation(id: "i_1")?.usesMade == 2)
            #expect(try store.agreedConsentTexts().map(\.text.body) == ["Example Media runs it."])
        }
    }
}
