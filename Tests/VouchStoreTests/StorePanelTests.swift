import Foundation
import Testing
import VouchDomain
@testable import VouchStore

/// Panels on each database: names unique whatever their case, members added and taken out, enrolled in a fix as they
/// are (never a tester who withdrew), joined through an invitation, and left on withdrawal.
struct StorePanelTests {
    let time = StoreFixtures.time
    let key = "tv-channel-selector-labels"

    func panel(_ id: String, _ name: String) -> Panel {
        Panel(id: id, name: name, description: "iPhone users", createdBy: "maria", createdAt: time)
    }

    func testers(_ ids: [String], in store: RelationalStore) throws {
        for id in ids { _ = try store.createTester(StoreFixtures.tester(id, keys: ["key-\(id)"]), by: "maria") }
    }

    @Test(arguments: StoreBackend.allCases)
    func panelsHaveUniqueNamesAndChangeTheirMembers(backend: StoreBackend) throws {
        try backend.withStore { store in
            try testers(["t_a", "t_b", "t_gone"], in: store)
            _ = try store.withdrawTester("t_gone", purgeFeedback: true, by: "maria", at: time)
            try store.createPanel(panel("p_2", "VoiceOver on iOS"), by: "maria")
            try store.createPanel(panel("p_1", "TalkBack on Android"), by: "maria")
            #expect(throws: StoreConflict("panel p_2 is already called 'VoiceOver on iOS'; a panel's name must differ from every other's")) {
                try store.createPanel(self.panel("p_3", "voiceover ON ios"), by: "maria")
            }
            #expect(try store.panels().map(\.id) == ["p_1", "p_2"], "by name")

            let added = try store.addPanelMembers(["t_b", "t_a", "t_b"], to: "p_2", by: "maria", at: time)
            #expect(added.added == ["t_b", "t_a"])
            #expect(added.panel.members == [Panel.Member(testerID: "t_a", addedBy: "maria", addedAt: time),
                                            Panel.Member(testerID: "t_b", addedBy: "maria", addedAt: time)])
            #expect(try store.addPanelMembers(["t_a"], to: "p_2", by: "rita", at: time).added.isEmpty)
            #expect(throws: ValidationFailure([FieldError(field: "testers[0]", message: "no tester 't_nobody'"),
                                               FieldError(field: "testers[1]", message: "tester 't_gone' has withdrawn and cannot join a panel")])) {
                try store.addPanelMembers(["t_nobody", "t_gone"], to: "p_1", by: "maria", at: self.time)
            }
            #expect(throws: StoreError.notFound(kind: "panel", id: "p_9")) { try store.addPanelMembers(["t_a"], to: "p_9", by: "maria", at: self.time) }

            let removed = try store.removePanelMember("t_a", from: "p_2", by: "maria", at: time)
            #expect(removed.removed == ["t_a"] && removed.panel.members.map(\.testerID) == ["t_b"])
            #expect(try store.removePanelMember("t_a", from: "p_2", by: "maria", at: time).removed.isEmpty)

            let deleted = try store.deletePanel("p_2", by: "maria", at: time)
            #expect(deleted.name == "VoiceOver on iOS" && deleted.members.count == 1)
            #expect(try store.panel("p_2") == nil)
            #expect(throws: StoreError.notFound(kind: "panel", id: "p_2")) { try store.deletePanel("p_2", by: "maria", at: self.time) }
            #expect(try store.tester("t_b")?.isActive == true, "a deleted panel's testers stay")
            // The name is free again once its panel is gone.
            try store.createPanel(panel("p_3", "voiceover on iOS"), by: "maria")

            let events = try store.auditEvents(fix: nil, after: nil, limit: 100).filter { $0.action.rawValue.hasPrefix("panel.") }
            #expect(events.map(\.action) == [.panelCreate, .panelCreate, .panelMemberAdd, .panelMemberRemove, .panelDelete, .panelCreate])
            #expect(events[2].after == #"{"added":["t_b","t_a"]}"#)
            #expect(!events.contains { ($0.after ?? "").contains("Tester t_") || ($0.before ?? "").contains("Tester t_") }, "never her name")
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func enrollingAPanelEnrollsItsMembersWhoHaveNotWithdrawn(backend: StoreBackend) throws {
        try backend.withStore { store in
            _ = try store.createFix(try StoreFixtures.fix(), by: "maria")
            try testers(["t_a", "t_b", "t_c", "t_gone"], in: store)
            try store.createPanel(panel("p_1", "VoiceOver on iOS"), by: "maria")
            try store.createPanel(panel("p_2", "Switch Control"), by: "maria")
            _ = try store.addPanelMembers(["t_a", "t_b", "t_gone"], to: "p_1", by: "maria", at: time)
            _ = try store.addPanelMembers(["t_b", "t_c"], to: "p_2", by: "maria", at: time)
            _ = try store.withdrawTester("t_gone", purgeFeedback: true, by: "maria", at: time)
            _ = try store.enroll(["t_a"], in: key, by: "maria", at: time)

            #expect(throws: ValidationFailure([FieldError(field: "panels[1]", message: "no panel 'p_9'")])) {
                try store.enroll([], panels: ["p_1", "p_9"], in: self.key, by: "maria", at: self.time)
            }
            let change = try store.enroll(["t_c"], panels: ["p_1", "p_2"], in: key, by: "rita", at: time)
            #expect(change.added == ["t_c", "t_b"], "t_a was enrolled already, t_c once though named twice")
            #expect(change.enrollments.map(\.testerID) == ["t_a", "t_b", "t_c"])
            let event = try #require(try store.auditEvents(fix: key, after: nil, limit: 10).last)
            #expect(event.action == .fixEnroll && event.after == #"{"enrolled":["t_c","t_b"],"panels":["p_1","p_2"]}"#)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func anInvitationAddsHerToItsPanelsThatStillExist(backend: StoreBackend) throws {
        try backend.withStore { store in
            try store.createPanel(panel("p_1", "VoiceOver on iOS"), by: "maria")
            try store.createPanel(panel("p_2", "Braille"), by: "maria")
            func invitation(_ id: String, panels: [String]) -> Invitation {
                Invitation(id: id, secretSHA256: [UInt8](repeating: UInt8(id.utf8.last ?? 0), count: 32), nameHint: nil, targetingKeys: [],
                           fixKeys: [], panelIDs: panels, language: "en", usesAllowed: 1, createdBy: "maria", createdAt: time,
                           expiresAt: time.addingTimeInterval(3_600))
            }
            #expect(throws: StoreError.notFound(kind: "panel", id: "p_9")) { try store.createInvitation(invitation("i_9", panels: ["p_1", "p_9"]), by: "maria") }
            #expect(try store.invitations().isEmpty)
            try store.createInvitation(invitation("i_1", panels: ["p_1", "p_2"]), by: "maria")
            #expect(try store.invitation(id: "i_1")?.panelIDs == ["p_1", "p_2"])
            _ = try store.deletePanel("p_2", by: "maria", at: time)

            let accepted = try store.acceptInvitation(secretSHA256: [UInt8](repeating: UInt8(ascii: "1"), count: 32), at: time) { _ in
                StoreFixtures.tester("t_aiko", keys: [])
            }
            #expect(accepted.joinedPanels == ["p_1"])
            #expect(try store.panel("p_1")?.members == [Panel.Member(testerID: "t_aiko", addedBy: "t_aiko", addedAt: time)])
            let event = try #require(try store.auditEvents(fix: nil, after: nil, limit: 20).last)
            #expect(event.action == .panelMemberAdd && event.principal == "t_aiko" && event.subject == "p_1")
        }
    }

    /// t_a in "VoiceOver on iOS" (p_1) and "Braille" (p_2), t_b in p_1 only.
    func aInTwoPanelsAndBInOne(_ store: RelationalStore) throws {
        try testers(["t_a", "t_b"], in: store)
        try store.createPanel(panel("p_1", "VoiceOver on iOS"), by: "maria")
        try store.createPanel(panel("p_2", "Braille"), by: "maria")
        _ = try store.addPanelMembers(["t_a", "t_b"], to: "p_1", by: "maria", at: time)
        _ = try store.addPanelMembers(["t_a"], to: "p_2", by: "maria", at: time)
    }

    /// Her panels say which assistive technology she uses: withdrawal takes her out of each, with the rest of the
    /// erasure, and a withdrawal that fails to commit leaves her in them.
    @Test(arguments: StoreBackend.allCases)
    func withdrawalTakesHerOutOfEveryPanelInTheSameTransaction(backend: StoreBackend) throws {
        try backend.withStore { store in
            try aInTwoPanelsAndBInOne(store)
            #expect(try store.exportTester("t_a").panels.map(\.name) == ["Braille", "VoiceOver on iOS"])

            try StoreFixtures.failCommits(of: store, afterInsertOn: "audit_events", when: "NEW.action = 'tester.withdraw'")
            #expect(throws: (any Error).self) { try store.withdrawTester("t_a", purgeFeedback: false, by: "maria", at: self.time) }
            #expect(try store.panel("p_2")?.members.map(\.testerID) == ["t_a"], "nothing of a failed withdrawal stays")
            #expect(try store.tester("t_a")?.isActive == true)
        }
        try backend.withStore { store in
            try aInTwoPanelsAndBInOne(store)
            _ = try store.withdrawTester("t_a", purgeFeedback: false, by: "maria", at: time)
            #expect(try store.panel("p_1")?.members.map(\.testerID) == ["t_b"])
            #expect(try store.panel("p_2")?.members.isEmpty == true)
            let withdrawal = try #require(try store.auditEvents(fix: nil, after: nil, limit: 50).last { $0.action == .testerWithdraw })
            #expect(withdrawal.after?.contains(#""panels_left":2"#) == true)
            let panelEvents = try store.auditEvents(fix: nil, after: nil, limit: 50).filter { $0.action == .panelMemberAdd }
            #expect(panelEvents.map(\.after) == [#"{"added":["withdrawn","t_b"]}"#, #"{"added":["withdrawn"]}"#],
                    "the audit log no longer leads to her")
        }
    }
}
