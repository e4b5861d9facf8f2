import Foundation
import Testing
import VouchDomain
import VouchIdentity
@testable import VouchStore

struct SQLiteStoreTests {
    let time = StoreFixtures.time

    func makeFix(_ key: String = "tv-channel-selector-labels") throws -> Fix {
        try StoreFixtures.fix(key)
    }

    @Test func createdFixSurvivesReopening() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("vouch.sqlite3")
        let fix = try makeFix()
        do {
            let store = try RelationalStore(path: path)
            _ = try store.createFix(fix, by: "maria")
            _ = try store.changeTargets(of: fix.key.rawValue, adding: ["user-1"], removing: [], by: "maria", at: time)
            _ = try store.updateFix(fix.key.rawValue, action: .fixStart, by: "maria", note: nil) { try $0.applying(.start, at: self.time) }
        }
        let reopened = try RelationalStore(path: path)
        let loaded = try #require(try reopened.fix(fix.key.rawValue))
        #expect(loaded.title == fix.title)
        #expect(loaded.wcag == ["1.1.1", "4.1.2"])
        #expect(loaded.state == .testing)
        #expect(loaded.createdAt == time)
        #expect(try reopened.targets(of: fix.key.rawValue) == ["user-1"])
        #expect(try reopened.flagRules() == [FlagRule(key: fix.key.rawValue, state: .testing, revision: 1, targetedKeys: ["user-1"])])
    }

    @Test func duplicateKeyIsRefusedAndNothingChanges() throws {
        let directory = try TemporaryDirectory()
        let store = try RelationalStore(path: directory.file("vouch.sqlite3"))
        _ = try store.createFix(try makeFix(), by: "maria")
        var other = try makeFix()
        other.title = "Another"
        #expect(throws: StoreError.alreadyExists(kind: "fix", id: "tv-channel-selector-labels")) { try store.createFix(other, by: "maria") }
        #expect(try store.fix("tv-channel-selector-labels")?.title == "Label channel logos")
        #expect(try store.auditEvents(fix: nil, after: nil, limit: 10).count == 1)
    }

    @Test func refusedTransitionRollsBackAndWritesNoAudit() throws {
        let directory = try TemporaryDirectory()
        let store = try RelationalStore(path: directory.file("vouch.sqlite3"))
        _ = try store.createFix(try makeFix(), by: "maria")
        #expect(throws: TransitionRefused.self) {
            try store.updateFix("tv-channel-selector-labels", action: .fixResume, by: "maria", note: nil) { try $0.applying(.resume, at: self.time) }
        }
        #expect(try store.fix("tv-channel-selector-labels")?.state == .draft)
        #expect(try store.auditEvents(fix: "tv-channel-selector-labels", after: nil, limit: 10).map(\.action) == [.fixCreate])
    }

    @Test func updatingMissingFixIsNotFound() throws {
        let directory = try TemporaryDirectory()
        let store = try RelationalStore(path: directory.file("vouch.sqlite3"))
        #expect(throws: StoreError.notFound(kind: "fix", id: "nope")) {
            try store.updateFix("nope", action: .fixStart, by: "maria", note: nil) { $0 }
        }
    }

    @Test func auditRecordsBeforeAfterPrincipalAndNote() throws {
        let directory = try TemporaryDirectory()
        let store = try RelationalStore(path: directory.file("vouch.sqlite3"))
        _ = try store.createFix(try makeFix(), by: "maria")
        _ = try store.updateFix("tv-channel-selector-labels", action: .fixRevise, by: "ken", note: "build 412") { try $0.applying(.revise, at: self.time) }
        let events = try store.auditEvents(fix: "tv-channel-selector-labels", after: nil, limit: 10)
        #expect(events.map(\.action) == [.fixCreate, .fixRevise])
        let revise = events[1]
        #expect(revise.principal == "ken")
        #expect(revise.note == "build 412")
        #expect(revise.before?.contains("\"revision\":1") == true)
        #expect(revise.after?.contains("\"revision\":2") == true)
        #expect(try store.auditEvents(fix: nil, after: events[0].id, limit: 10).map(\.id) == [revise.id])
    }

    @Test func targetsAddRemoveAndReportOnlyRealChanges() throws {
        let directory = try TemporaryDirectory()
        let store = try RelationalStore(path: directory.file("vouch.sqlite3"))
        _ = try store.createFix(try makeFix(), by: "maria")
        let first = try store.changeTargets(of: "tv-channel-selector-labels", adding: ["b", "a", "a"], removing: [], by: "maria", at: time)
        #expect(first.targets == ["a", "b"])
        #expect(first.added == ["b", "a"])
        let second = try store.changeTargets(of: "tv-channel-selector-labels", adding: ["a"], removing: ["b", "zzz"], by: "maria", at: time)
        #expect(second.added.isEmpty)
        #expect(second.removed == ["b"])
        #expect(try store.flagRules().first?.targetedKeys == ["a"])
        #expect(throws: StoreError.notFound(kind: "fix", id: "nope")) {
            try store.changeTargets(of: "nope", adding: ["a"], removing: [], by: "maria", at: self.time)
        }
    }

    @Test func fixesPageByKeyAndFilterByState() throws {
        let directory = try TemporaryDirectory()
        let store = try RelationalStore(path: directory.file("vouch.sqlite3"))
        for key in ["c-fix", "a-fix", "b-fix"] { _ = try store.createFix(try makeFix(key), by: "maria") }
        _ = try store.updateFix("b-fix", action: .fixStart, by: "maria", note: nil) { try $0.applying(.start, at: self.time) }
        #expect(try store.fixes(state: nil, after: nil, limit: 2).map(\.key.rawValue) == ["a-fix", "b-fix"])
        #expect(try store.fixes(state: nil, after: "b-fix", limit: 2).map(\.key.rawValue) == ["c-fix"])
        #expect(try store.fixes(state: .testing, after: nil, limit: 10).map(\.key.rawValue) == ["b-fix"])
    }

    @Test func tokensKeepOnlyTheHashAndRevocationIsAudited() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("vouch.sqlite3")
        let store = try RelationalStore(path: path)
        let hash = Array(repeating: UInt8(7), count: 32)
        let token = TokenRecord(id: "tok_1", name: "ios-app", principalName: "ios-app", role: .sdk, secretSHA256: hash, createdBy: "admin", createdAt: time)
        try store.createToken(token, principal: (try PrincipalName("ios-app", field: "name"), "name"))
        #expect(try store.activeTokens() == [token])
        let revoked = try store.revokeToken("tok_1", by: "admin", at: time)
        #expect(revoked.revokedAt == time)
        #expect(try store.activeTokens().isEmpty)
        #expect(try store.tokens(after: nil, limit: 10).count == 1)
        #expect(try store.auditEvents(fix: nil, after: nil, limit: 10).map(\.action) == [.tokenCreate, .tokenRevoke])
        #expect(throws: StoreError.notFound(kind: "token", id: "tok_2")) { try store.revokeToken("tok_2", by: "admin", at: self.time) }
    }

    @Test func backupCopiesTheLiveDatabase() throws {
        let directory = try TemporaryDirectory()
        let store = try RelationalStore(path: directory.file("vouch.sqlite3"))
        _ = try store.createFix(try makeFix(), by: "maria")
        try #require(store.database as? SQLiteDatabase).backup(to: directory.file("copy.sqlite3"))
        let copy = try RelationalStore(path: directory.file("copy.sqlite3"))
        #expect(try copy.fix("tv-channel-selector-labels")?.uiArea == "TV channel selector")
    }
}
