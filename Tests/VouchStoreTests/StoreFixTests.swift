import Foundation
import Testing
import VouchDomain
@testable import VouchStore

/// Fixes, their targets, the flag rules built from them and the audit of their changes, on each database.
struct StoreFixTests {
    let time = StoreFixtures.time
    let key = "tv-channel-selector-labels"

    @Test(arguments: StoreBackend.allCases)
    func createdFixIsReadByAnotherStoreOnTheDatabase(backend: StoreBackend) throws {
        try backend.withDatabase { open in
            let fix = try StoreFixtures.fix()
            do {
                let store = try open()
                _ = try store.createFix(fix, by: "maria")
                _ = try store.changeTargets(of: key, adding: ["user-1"], removing: [], by: "maria", at: time)
                _ = try store.updateFix(key, action: .fixStart, by: "maria", note: nil) { try $0.applying(.start, at: self.time) }
            }
            let reopened = try open()
            let loaded = try #require(try reopened.fix(key))
            #expect(loaded.title == fix.title)
            #expect(loaded.wcag == ["1.1.1", "4.1.2"])
            #expect(loaded.state == .testing)
            #expect(loaded.createdAt == time)
            #expect(try reopened.targets(of: key) == ["user-1"])
            #expect(try reopened.flagRules() == [FlagRule(key: key, state: .testing, revision: 1, targetedKeys: ["user-1"])])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func duplicateKeyIsRefusedAndNothingChanges(backend: StoreBackend) throws {
        try backend.withStore { store in
            _ = try store.createFix(try StoreFixtures.fix(), by: "maria")
            var other = try StoreFixtures.fix()
            other.title = "Another"
            #expect(throws: StoreError.alreadyExists(kind: "fix", id: key)) { try store.createFix(other, by: "maria") }
            #expect(try store.fix(key)?.title == "Label channel logos")
            #expect(try store.auditEvents(fix: nil, after: nil, limit: 10).count == 1)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func refusedTransitionRollsBackAndWritesNoAudit(backend: StoreBackend) throws {
        try backend.withStore { store in
            _ = try store.createFix(try StoreFixtures.fix(), by: "maria")
            #expect(throws: TransitionRefused.self) {
                try store.updateFix(self.key, action: .fixResume, by: "maria", note: nil) { try $0.applying(.resume, at: self.time) }
            }
            #expect(try store.fix(key)?.state == .draft)
            #expect(try store.auditEvents(fix: key, after: nil, limit: 10).map(\.action) == [.fixCreate])
        }
    }

    /// The fix row and its audit are written before the events; an event the database refuses undoes both.
    @Test(arguments: StoreBackend.allCases)
    func updateThatFailsAfterWritingRollsBackEveryWrite(backend: StoreBackend) throws {
        try backend.withStore { store in
            _ = try store.createFix(try StoreFixtures.fix(), by: "maria")
            _ = try store.enqueue([StoreFixtures.event("evt_taken")], onlyTo: nil, by: "admin")
            let revision = try store.configurationRevision()
            let failure = #expect(throws: (any Error).self) {
                try store.updateFix(self.key, action: .fixStart, by: "maria", note: nil, emitting: { _, _ in [StoreFixtures.event("evt_taken")] }) {
                    try $0.applying(.start, at: self.time)
                }
            }
            #expect(failure.map { StoreFixtures.isViolation($0, of: .unique) } == true)
            #expect(try store.fix(key)?.state == .draft)
            #expect(try store.auditEvents(fix: key, after: nil, limit: 10).map(\.action) == [.fixCreate])
            #expect(try store.configurationRevision() == revision)
            // The store is usable after the failed transaction.
            _ = try store.updateFix(key, action: .fixStart, by: "maria", note: nil) { try $0.applying(.start, at: self.time) }
            #expect(try store.fix(key)?.state == .testing)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func updatingMissingFixIsNotFound(backend: StoreBackend) throws {
        try backend.withStore { store in
            #expect(throws: StoreError.notFound(kind: "fix", id: "nope")) {
                try store.updateFix("nope", action: .fixStart, by: "maria", note: nil) { $0 }
            }
        }
    }

    /// Keys whose bytewise order (SQLite's) differs from a language collation's: en-US puts "a_z" before "a-fix"
    /// and "a0", where bytes put "a-fix" (0x2D) and "a0" (0x30) before "a_z" (0x5F).
    @Test(arguments: StoreBackend.allCases)
    func fixesPageByKeyInByteOrderAndFilterByState(backend: StoreBackend) throws {
        try backend.withStore { store in
            if backend == .postgres {
                let languageOrder = try store.database.read { try $0.scalar("SELECT CASE WHEN 'a_z' < 'a-fix' THEN 1 ELSE 0 END") }
                #expect(languageOrder == 1, "the test database's default collation must not be bytewise, or this test proves nothing")
            }
            for key in ["ab", "a_z", "a0", "a-fix"] { _ = try store.createFix(try StoreFixtures.fix(key), by: "maria") }
            _ = try store.updateFix("a0", action: .fixStart, by: "maria", note: nil) { try $0.applying(.start, at: self.time) }
            _ = try store.updateFix("ab", action: .fixStart, by: "maria", note: nil) { try $0.applying(.start, at: self.time) }
            #expect(try store.fixes(state: nil, after: nil, limit: 2).map(\.key.rawValue) == ["a-fix", "a0"])
            #expect(try store.fixes(state: nil, after: "a0", limit: 2).map(\.key.rawValue) == ["a_z", "ab"])
            #expect(try store.fixes(state: nil, after: "ab", limit: 2).isEmpty)
            #expect(try store.fixes(state: .testing, after: nil, limit: 10).map(\.key.rawValue) == ["a0", "ab"])
            #expect(try store.fixes(state: .testing, after: "a0", limit: 10).map(\.key.rawValue) == ["ab"])
            #expect(try store.fixes(state: nil, after: nil, limit: Int.max).count == 4)
            #expect(try store.fixes(in: [.testing, .paused]).map(\.key.rawValue) == ["a0", "ab"])
            #expect(try store.fixes(in: [.draft]).map(\.key.rawValue) == ["a-fix", "a_z"])
            #expect(try store.fixes(in: [.released]).isEmpty)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func targetsAddRemoveAndReportOnlyRealChanges(backend: StoreBackend) throws {
        try backend.withStore { store in
            _ = try store.createFix(try StoreFixtures.fix(), by: "maria")
            let first = try store.changeTargets(of: key, adding: ["b", "a", "a", "B"], removing: [], by: "maria", at: time)
            #expect(first.targets == ["B", "a", "b"])
            #expect(first.added == ["b", "a", "B"])
            let second = try store.changeTargets(of: key, adding: ["a"], removing: ["b", "zzz"], by: "maria", at: time)
            #expect(second.added.isEmpty)
            #expect(second.removed == ["b"])
            #expect(try store.targets(of: key) == ["B", "a"])
            #expect(try store.flagRules().first?.targetedKeys == ["B", "a"])
            #expect(throws: StoreError.notFound(kind: "fix", id: "nope")) {
                try store.changeTargets(of: "nope", adding: ["a"], removing: [], by: "maria", at: self.time)
            }
            #expect(throws: StoreError.notFound(kind: "fix", id: "nope")) { try store.targets(of: "nope") }
        }
    }

    /// What the OFREP snapshot is built from at start equals what the writes published rule by rule.
    @Test(arguments: StoreBackend.allCases)
    func flagRulesEqualTheRulesTheWritesPublished(backend: StoreBackend) throws {
        try backend.withStore { store in
            let log = PublicationLog(store.changes)
            try StoreFixtures.fixInTesting(store, testers: 3)
            _ = try store.createFix(try StoreFixtures.fix("second-fix"), by: "maria")
            _ = try store.changeTargets(of: "second-fix", adding: ["qa-device", "user-2"], removing: [], by: "maria", at: time)
            _ = try store.changeTargets(of: key, adding: ["qa-device"], removing: [], by: "maria", at: time)
            _ = try store.unenroll(["t_1"], from: key, by: "maria", at: time)
            _ = try store.withdrawTester("t_2", purgeFeedback: false, by: "maria", at: time)
            _ = try store.updateFix(key, action: .fixUpdate, by: "maria", note: nil) { fix in
                var next = fix
                next.rolloutPercentage = 25
                return next
            }
            var published: [String: FlagRule] = [:]
            for case .flagRule(var rule) in log.all.flatMap(\.changes) {
                rule.version = 0
                published[rule.key] = rule
            }
            let stored = try store.flagRules().sorted { $0.key < $1.key }
            #expect(stored == published.values.sorted { $0.key < $1.key })
            #expect(stored.map(\.targetedKeys) == [["qa-device"], ["qa-device", "user-0"]])
            #expect(stored.last?.rolloutPercentage == 25)
        }
    }

    /// The bulk read groups rows by fix as they come; whatever order the two sources return them in, each fix gets
    /// exactly its direct targets and its active enrolled testers' keys, once each, and no other fix's.
    @Test(arguments: StoreBackend.allCases)
    func flagRulesGatherEachFixsKeysFromBothSourcesInAnyOrder(backend: StoreBackend) throws {
        try backend.withStore { store in
            let fixes = ["fix-a", "fix-b", "fix-c", "fix-d", "fix-e"]
            for fix in fixes { _ = try store.createFix(try StoreFixtures.fix(fix), by: "maria") }
            var expected = Dictionary(uniqueKeysWithValues: fixes.map { ($0, Set<String>()) })
            // Direct targets: some keys shared between fixes, fix-e none.
            for (index, fix) in fixes.dropLast().enumerated() {
                let keys = (0...index).map { "direct-\($0)" } + ["shared"]
                _ = try store.changeTargets(of: fix, adding: keys, removing: [], by: "maria", at: time)
                expected[fix]!.formUnion(keys)
            }
            // Testers with two keys each, enrolled across fixes; one key is also a direct target of fix-b.
            let testerKeys = ["t_0": ["phone-0", "shared"], "t_1": ["phone-1", "tablet-1"], "t_2": ["phone-2", "direct-0"]]
            for (id, keys) in testerKeys.sorted(by: { $0.key < $1.key }) { _ = try store.createTester(StoreFixtures.tester(id, keys: keys), by: "maria") }
            let enrollments = ["fix-a": ["t_1"], "fix-b": ["t_0", "t_2"], "fix-d": ["t_2"], "fix-e": ["t_0", "t_1", "t_2"]]
            for (fix, ids) in enrollments.sorted(by: { $0.key < $1.key }) {
                _ = try store.enroll(ids, in: fix, by: "maria", at: time)
                for id in ids { expected[fix]!.formUnion(testerKeys[id]!) }
            }
            let rules = try store.flagRules()
            #expect(rules.count == fixes.count)
            #expect(Dictionary(uniqueKeysWithValues: rules.map { ($0.key, $0.targetedKeys) }) == expected)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func auditRecordsBeforeAfterPrincipalAndNote(backend: StoreBackend) throws {
        try backend.withStore { store in
            _ = try store.createFix(try StoreFixtures.fix(), by: "maria")
            _ = try store.updateFix(key, action: .fixRevise, by: "ken", note: "build 412") { try $0.applying(.revise, at: self.time) }
            let events = try store.auditEvents(fix: key, after: nil, limit: 10)
            #expect(events.map(\.action) == [.fixCreate, .fixRevise])
            let revise = events[1]
            #expect(revise.principal == "ken")
            #expect(revise.note == "build 412")
            #expect(revise.at == time)
            #expect(revise.before?.contains("\"revision\":1") == true)
            #expect(revise.after?.contains("\"revision\":2") == true)
            #expect(try store.auditEvents(fix: nil, after: events[0].id, limit: 10).map(\.id) == [revise.id])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func auditPagesByIdAndFiltersByFix(backend: StoreBackend) throws {
        try backend.withStore { store in
            for key in ["first-fix", "second-fix"] {
                _ = try store.createFix(try StoreFixtures.fix(key), by: "maria")
                _ = try store.changeTargets(of: key, adding: ["user-1"], removing: [], by: "maria", at: time)
            }
            _ = try store.createTester(StoreFixtures.tester("t_0", keys: []), by: "maria")
            let all = try store.auditEvents(fix: nil, after: nil, limit: 100)
            #expect(all.map(\.action) == [.fixCreate, .fixTargets, .fixCreate, .fixTargets, .testerCreate])
            #expect(all.map(\.id) == all.map(\.id).sorted())
            let firstPage = try store.auditEvents(fix: nil, after: nil, limit: 2)
            let secondPage = try store.auditEvents(fix: nil, after: firstPage.last?.id, limit: 2)
            let lastPage = try store.auditEvents(fix: nil, after: secondPage.last?.id, limit: 2)
            #expect((firstPage + secondPage + lastPage).map(\.id) == all.map(\.id))
            #expect(try store.auditEvents(fix: "second-fix", after: nil, limit: 100).map(\.id) == [all[2].id, all[3].id])
            #expect(try store.auditEvents(fix: "second-fix", after: all[2].id, limit: 100).map(\.id) == [all[3].id])
            #expect(try store.auditEvents(fix: "no-such-fix", after: nil, limit: 100).isEmpty)
            // The extremes of the 64-bit id are bound and compared, never overflow.
            #expect(try store.auditEvents(fix: nil, after: Int64.max, limit: 100).isEmpty)
            #expect(try store.auditEvents(fix: nil, after: Int64.min, limit: Int.max).count == all.count)
        }
    }
}
