import Testing
import VouchDomain

/// The snapshot's flat index against a straightforward evaluation of the rules (a `Set` look-up, and the bucket of
/// flagd's CBOR array or Unleash's joined string, each encoded whole before hashing), on randomized rules and keys from a fixed seed: every outcome must be the same.
@Suite struct EvaluationSnapshotReferenceTests {
    /// SplitMix64 (as vouch-bench's workload draws), so every run draws the same rules and keys.
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64

        init(seed: UInt64) { state = seed }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Keys of every shape the hashing and comparison treat differently: empty, short (small Strings), exactly one
    /// and several 8-byte words, long, non-ASCII, prefixes of each other, differing only in the last byte.
    static func keyPool(_ random: inout SplitMix64, count: Int, prefix: String) -> [String] {
        var keys = ["", "a", "ab", "abcdefgh", "abcdefghi", "\(prefix)-é-ünï-😀", String(repeating: "x", count: 130)]
        while keys.count < count {
            let base = "\(prefix)-\(random.next() % 1_000_000)"
            switch random.next() % 4 {
            case 0: keys.append(base)
            case 1: keys.append(base + "-0123456789abcdef0123456789") // UUID-like length
            case 2: keys.append(contentsOf: [base + "-z", base + "-y"]) // differ in the last byte only
            default: keys.append(contentsOf: [base, base + "x"]) // one a prefix of the other
            }
        }
        return Array(Set(keys))
    }

    static func randomRule(key: String, targets pool: [String], _ random: inout SplitMix64) -> FlagRule {
        let state = FixState.allCases[Int(random.next() % UInt64(FixState.allCases.count))]
        let percentages = [-5, 0, 1, 37, 50, 99, 100, 150]
        var targets = Set<String>()
        for _ in 0..<Int(random.next() % 40) { targets.insert(pool[Int(random.next() % UInt64(pool.count))]) }
        return FlagRule(key: key, state: state, revision: Int(random.next() % 5) + 1, targetedKeys: targets,
                        rolloutPercentage: percentages[Int(random.next() % UInt64(percentages.count))],
                        bucketing: random.next() % 2 == 0 ? .flagd : .unleash, version: Int64(random.next() % 100))
    }

    /// The evaluation as the state table reads, independent of the snapshot's index and of `FlagRule.evaluate`.
    static func reference(_ rule: FlagRule?, targetingKey: String?) -> FlagOutcome? {
        guard let rule else { return nil }
        switch rule.state {
        case .draft, .paused, .rolledBack, .abandoned: return FlagOutcome(rule: rule, value: false, reason: .disabled)
        case .released: return FlagOutcome(rule: rule, value: true, reason: .static)
        case .testing, .promoting, .promotionFailed, .releasing:
            guard let targetingKey else { return FlagOutcome(rule: rule, failure: .targetingKeyMissing) }
            if rule.targetedKeys.contains(targetingKey) { return FlagOutcome(rule: rule, value: true, reason: .targetingMatch) }
            guard rule.state == .releasing else { return FlagOutcome(rule: rule, value: false, reason: .default) }
            let bucket = switch rule.bucketing {
            case .flagd: Int((UInt64(Murmur3.hash32(CanonicalCBOR.encode(.array([.text(rule.key), .text(targetingKey)])))) * 100) >> 32) + 1
            case .unleash: Int(Murmur3.hash32(Array((rule.key + ":" + targetingKey).utf8)) % 100) + 1
            }
            return FlagOutcome(rule: rule, value: bucket <= rule.rolloutPercentage, reason: .split)
        }
    }

    /// Every flag of `flags` for every key of `keys` (and no key), single and bulk, against the reference.
    static func expectSameAsReference(_ snapshot: EvaluationSnapshot, _ rules: [String: FlagRule], flags: [String], keys: [String?]) {
        for flag in flags {
            for key in keys where snapshot.evaluate(flag: flag, targetingKey: key) != reference(rules[flag], targetingKey: key) {
                Issue.record("flag '\(flag)', targeting key \(key.map { "'\($0)'" } ?? "none"): \(String(describing: snapshot.evaluate(flag: flag, targetingKey: key))), expected \(String(describing: reference(rules[flag], targetingKey: key)))")
                return
            }
        }
        for key in keys.prefix(20) {
            let bulk = snapshot.evaluateAll(targetingKey: key)
            let expected = rules.keys.sorted().map { reference(rules[$0], targetingKey: key)! }
            #expect(bulk.count == expected.count)
            if let first = zip(bulk, expected).first(where: { $0 != $1 }) {
                Issue.record("bulk, targeting key \(key.map { "'\($0)'" } ?? "none"): \(first.0), expected \(first.1)")
            }
        }
    }

    @Test func builtSnapshotAgreesWithTheReference() {
        var random = SplitMix64(seed: 15)
        let pool = Self.keyPool(&random, count: 300, prefix: "user")
        let flagKeys = Self.keyPool(&random, count: 400, prefix: "flag")
        let rules = Dictionary(uniqueKeysWithValues: flagKeys.map { ($0, Self.randomRule(key: $0, targets: pool, &random)) })
        let snapshot = EvaluationSnapshot(rules: rules)
        // Unknown flags and keys too: near misses of stored ones.
        let flags = flagKeys + ["nope", "flag", flagKeys[0] + "!", String(flagKeys[1].dropLast())]
        let keys: [String?] = pool + [nil, "unknown", pool[0] + "!", String(pool[1].dropLast())]
        Self.expectSameAsReference(snapshot, rules, flags: flags, keys: keys)
    }

    /// Rules changed, added and removed one at a time, as the change feed swaps them in: after each swap the
    /// snapshot answers as the reference on the rules at that point, and the snapshot it was made from is unchanged.
    @Test func swappedSnapshotsAgreeWithTheReference() {
        var random = SplitMix64(seed: 1_500)
        let pool = Self.keyPool(&random, count: 120, prefix: "tester")
        let flagKeys = Self.keyPool(&random, count: 60, prefix: "fix")
        var rules = Dictionary(uniqueKeysWithValues: flagKeys.prefix(20).map { ($0, Self.randomRule(key: $0, targets: pool, &random)) })
        var snapshot = EvaluationSnapshot(rules: rules)
        let keys: [String?] = Array(pool.prefix(40)) + [nil, "unknown"]
        for step in 0..<600 {
            let key = flagKeys[Int(random.next() % UInt64(flagKeys.count))]
            var rule: FlagRule? = Self.randomRule(key: key, targets: pool, &random)
            if var existing = rules[key] {
                switch random.next() % 4 {
                case 0: rule = nil
                case 1: existing.targetedKeys.insert(pool[Int(random.next() % UInt64(pool.count))])
                        rule = existing
                case 2: if let any = existing.targetedKeys.first { existing.targetedKeys.remove(any) }
                        existing.state = [.testing, .releasing, .released][Int(random.next() % 3)]
                        rule = existing
                default: break
                }
            }
            let previous = snapshot
            let previousRules = rules
            snapshot = snapshot.replacing(key, with: rule)
            rules[key] = rule
            #expect(snapshot.generation == UInt64(step + 1))
            #expect(snapshot.orderedKeys == rules.keys.sorted())
            Self.expectSameAsReference(snapshot, rules, flags: [key, flagKeys[step % flagKeys.count]], keys: keys)
            if step % 50 == 0 {
                Self.expectSameAsReference(snapshot, rules, flags: flagKeys, keys: keys)
                Self.expectSameAsReference(previous, previousRules, flags: [key], keys: keys)
            }
        }
        Self.expectSameAsReference(snapshot, rules, flags: flagKeys, keys: pool + [nil])
    }
}
