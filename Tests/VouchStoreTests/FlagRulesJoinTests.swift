import Foundation
import Testing
import VouchDomain
@testable import VouchStore

/// `flagRules()` reads the fixes and their targeted keys in key order and joins them side by side
/// (docs/storage.md, "Loading the rules"): every fix gets exactly its own keys whatever the database's collation,
/// and the join by key takes over where the two lists do not line up.
@Suite struct FlagRulesJoinTests {
    let time = Date(timeIntervalSince1970: 1_790_000_000)

    /// Keys whose byte order differs from a language collation's (which weighs '-', '.' and '_' less than letters):
    /// both reads are ordered by the same database, so they line up on PostgreSQL's "en-US" as on SQLite.
    @Test(arguments: StoreBackend.allCases)
    func eachFixGetsItsOwnKeysUnderEitherCollation(backend: StoreBackend) throws {
        try backend.withStore { store in
            let fixes = ["a-c", "ab", "a.b", "a_b", "a0", "aa-z", "a-a", "b"]
            for fix in fixes { _ = try store.createFix(try StoreFixtures.fix(fix), by: "maria") }
            for fix in fixes.dropLast() {
                _ = try store.changeTargets(of: fix, adding: ["only-\(fix)", "shared"], removing: [], by: "maria", at: time)
            }
            let rules = try store.flagRules()
            #expect(rules.map(\.key).sorted() == fixes.sorted())
            for rule in rules {
                #expect(rule.targetedKeys == (rule.key == "b" ? [] : ["only-\(rule.key)", "shared"]), "\(rule.key)")
            }
        }
    }

    @Test func groupsInTheRulesOrderAreJoinedSideBySide() {
        var rules = ["a", "b", "c", "d"].map { FlagRule(key: $0, state: .testing, revision: 1) }
        RelationalStore.attach([("a", ["1"]), ("a", ["2"]), ("c", ["3"]), ("d", ["4", "5"])], to: &rules)
        #expect(rules.map(\.targetedKeys) == [["1", "2"], [], ["3"], ["4", "5"]])
    }

    /// A group out of turn, or of a fix that is not among the rules, would stall the walk: the groups are then
    /// joined by key, and no rule loses or gains a key.
    @Test(arguments: [
        [("c", Set(["3"])), ("a", Set(["1"])), ("d", Set(["4"]))],
        [("a", Set(["1"])), ("b0-gone", Set(["x"])), ("c", Set(["3"])), ("d", Set(["4"]))],
        [("a", Set(["1"])), ("c", Set(["3"])), ("d", Set(["4"])), ("a", Set(["2"]))],
    ])
    func groupsOutOfTurnAreJoinedByKey(groups: [(String, Set<String>)]) {
        var rules = ["a", "b", "c", "d"].map { FlagRule(key: $0, state: .testing, revision: 1) }
        RelationalStore.attach(groups.map { (fix: $0.0, keys: $0.1) }, to: &rules)
        var expected: [String: Set<String>] = ["a": [], "b": [], "c": [], "d": []]
        for (fix, keys) in groups where expected[fix] != nil { expected[fix]!.formUnion(keys) }
        #expect(Dictionary(uniqueKeysWithValues: rules.map { ($0.key, $0.targetedKeys) }) == expected)
    }
}
