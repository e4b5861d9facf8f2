import Testing
@testable import VouchDomain

/// The layout bulk evaluation relies on: one targeting key's pairs in one block of neighbouring shards inside one
/// group, however they were placed (the build's staging or a swap), spread over the block's shards; the records in
/// key order kept in step with the table through swaps; and bulk answers equal to single ones.
extension FlagIndexLayoutTests {
    /// 2,000 fixes in testing, each targeting 100 keys of a pool of 20,000: 200,000 pairs, 1,024 shards in 32 groups
    /// of 32, so a key's block of 16 shards is half a group.
    static func spreadRules(_ random: inout Reference.SplitMix64) -> [String: FlagRule] {
        let pool = (0..<20_000).map { "spread-user-\($0)" }
        var rules: [String: FlagRule] = [:]
        for number in 0..<2_000 {
            let key = "spread.fix-\(number)"
            var targets = Set<String>()
            while targets.count < 100 { targets.insert(pool[Int(random.next() % UInt64(pool.count))]) }
            rules[key] = FlagRule(key: key, state: .testing, revision: 1, targetedKeys: targets)
        }
        return rules
    }

    /// How many pairs each shard holds more in `with` than in `without`: where the pairs that differ were put.
    static func addedPairs(_ with: EvaluationSnapshot, over without: EvaluationSnapshot) -> [Int: Int] {
        var added: [Int: Int] = [:]
        for shard in 0..<with.index.shardCount {
            let difference = with.index.pairCount(ofShard: shard) - without.index.pairCount(ofShard: shard)
            if difference != 0 { added[shard] = difference }
        }
        return added
    }

    /// The pairs of one key, as a fresh build puts them and as swaps do: all in one aligned block of
    /// `shardsPerKey` shards (inside one group), spread over it so that no shard takes much more than its share.
    @Test func aKeysPairsLieInOneBlockOfNeighbouringShards() {
        var random = Reference.SplitMix64(seed: 3_605)
        let rules = Self.spreadRules(&random)
        let without = EvaluationSnapshot(rules: rules)
        #expect(without.index.shardCount == 1_024)
        #expect(without.index.shardGroupCount == 32)
        #expect(without.index.shardsPerKey == 16)
        let shardsPerGroup = without.index.shardCount / without.index.shardGroupCount

        // A tester in every fix: 2,000 pairs of one key.
        var heavy = rules
        for key in rules.keys { heavy[key]!.targetedKeys.insert("heavy-tester") }
        var swapped = without
        for key in rules.keys.sorted() { swapped = swapped.replacing(key, with: heavy[key]!) }
        for placed in [EvaluationSnapshot(rules: heavy), swapped] {
            #expect(placed.index.shardCount == 1_024)
            let added = Self.addedPairs(placed, over: without)
            #expect(added.values.reduce(0, +) == 2_000)
            let block = added.keys.min()! / 16
            #expect(added.keys.allSatisfy { $0 / 16 == block }, "shards \(added.keys.sorted())")
            #expect(Set(added.keys.map { $0 / shardsPerGroup }).count == 1)
            #expect(added.count == 16)
            #expect(added.values.max()! < 2 * 2_000 / 16, "pairs per shard \(added.values.sorted())")
            Self.expectSameAsFresh(placed, heavy, keys: ["heavy-tester", "spread-user-1", nil, "nobody"])
        }

        // Ordinary keys: each key's few pairs in its own block, the blocks of different keys spread over the table.
        var blocks = Set<Int>()
        let heavySnapshot = EvaluationSnapshot(rules: heavy)
        for user in ["spread-user-7", "spread-user-70", "spread-user-700", "spread-user-7000"] {
            var added = heavySnapshot
            for key in rules.keys.sorted().prefix(40) {
                var rule = heavy[key]!
                rule.targetedKeys.insert(user + "-new")
                added = added.replacing(key, with: rule)
            }
            let shards = Self.addedPairs(added, over: heavySnapshot).keys
            #expect(shards.allSatisfy { $0 / 16 == shards.first! / 16 })
            blocks.insert(shards.first! / 16)
        }
        #expect(blocks.count > 1)
    }

    /// The shard number is the key's block, then the pair's place in it: what `aKeysPairsLieInOneBlock…` sees
    /// stored, for any hashes, at several table sizes (one shard, fewer shards than a block, many).
    @Test(arguments: [0, 2_000, 40_000, 200_000]) func theShardOfAPairIsTheKeysBlockThenThePairsPlace(pairs: Int) {
        var rules: [String: FlagRule] = [:]
        let perFix = 100
        for number in 0..<max(1, pairs / perFix) {
            let key = "block.fix-\(number)"
            rules[key] = FlagRule(key: key, state: .testing, revision: 1,
                                  targetedKeys: pairs == 0 ? [] : Set((0..<perFix).map { "block-user-\(number)-\($0)" }))
        }
        let index = EvaluationSnapshot(rules: rules).index
        let perKey = index.shardsPerKey
        #expect(perKey <= 16)
        #expect(index.shardCount % perKey == 0)
        var random = Reference.SplitMix64(seed: UInt64(pairs))
        for _ in 0..<2_000 {
            let keyHash = random.next()
            let placesInBlock = Set((0..<64).map { _ in index.shard(keyHash: keyHash, pairHash: random.next()) })
            #expect(placesInBlock.allSatisfy { $0 / perKey == placesInBlock.first! / perKey && $0 < index.shardCount })
            if perKey > 1 { #expect(placesInBlock.count > 1) }
        }
    }

    /// Bulk evaluation, which reads the records in key order, against single evaluation, which reads the table, and
    /// against the reference: after swaps that add and remove targets (a heavy key among them), change states and
    /// bucketing, add fixes in the middle of the key order (moving the later records across chunks) and remove some.
    @Test func bulkEvaluationAgreesWithSingleEvaluationAfterSwaps() {
        var random = Reference.SplitMix64(seed: 36_036)
        let generated = Self.rules(&random)
        var rules = generated.rules
        let pool = generated.pool + ["heavy-tester"]
        var snapshot = EvaluationSnapshot(rules: rules)
        let keys: [String?] = Array(pool.prefix(6)) + ["heavy-tester", nil, "layout-untargeted"]
        for step in 0..<900 {
            let existing = rules.keys.sorted()[Int(random.next() % UInt64(rules.count))]
            var rule = rules[existing]!
            switch step % 6 {
            case 0: rule.targetedKeys.insert(pool[Int(random.next() % UInt64(pool.count))])
            case 1: rule.targetedKeys.insert("heavy-tester")
            case 2: rule.targetedKeys.remove(rule.targetedKeys.randomElement(using: &random) ?? "")
            case 3:
                rule.state = [.testing, .releasing, .released, .paused, .promoting][Int(random.next() % 5)]
                rule.rolloutPercentage = Int(random.next() % 101)
                rule.bucketing = random.next() % 2 == 0 ? .flagd : .unleash
            case 4:
                // A new fix whose key sorts among the others ("layout.fix-12" < "layout.fix-12a" < "layout.fix-13").
                rule = Reference.randomRule(key: existing + "a\(step)", targets: pool, &random)
            default:
                if step % 60 == 5 {
                    snapshot = snapshot.replacing(existing, with: nil)
                    rules[existing] = nil
                    continue
                }
                rule.revision += 1
            }
            snapshot = snapshot.replacing(rule.key, with: rule)
            rules[rule.key] = rule
            if step % 150 == 149 {
                #expect(snapshot.orderedKeys == rules.keys.sorted())
                for key in keys {
                    let bulk = snapshot.evaluateAll(targetingKey: key)
                    let single = snapshot.orderedKeys.map { snapshot.evaluate(flag: $0, targetingKey: key)! }
                    let reference = snapshot.orderedKeys.map { Reference.reference(rules[$0], targetingKey: key)! }
                    #expect(bulk == single, "targeting key \(key ?? "none"), step \(step)")
                    #expect(bulk == reference, "targeting key \(key ?? "none"), step \(step)")
                }
            }
        }
    }

    /// A bulk evaluation writes one outcome per flag: kept at 32 bytes by the order of its fields.
    @Test func anOutcomeIsThirtyTwoBytes() {
        #expect(MemoryLayout<FlagOutcome>.stride == 32)
        #expect(MemoryLayout<FlagRecord>.stride == 32)
    }
}
