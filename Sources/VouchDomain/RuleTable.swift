/// The snapshot's rules by flag key, split into buckets by the key's hash, so that a swap copies the list of buckets
/// and the one bucket the changed key falls in, never every rule.
///
/// A single dictionary was copied whole by every swap and released whole with the snapshot it replaced: each rule's
/// key and set retained and released again, a few random memory reads per rule. At a million fixes that was half a
/// second per change, growing faster than the rules (BENCHMARKS.md, part 12). Writers read it (`SnapshotHolder`
/// compares versions, flagd's document lists every rule); evaluation never does, it reads `FlagIndex`.
public struct RuleTable: Sendable {
    private var buckets: [[String: FlagRule]]
    private let bucketBits: Int
    public private(set) var count: Int

    /// Rules per bucket aimed at when the table is made: a swap copies a bucket of about this many.
    static let rulesPerBucket = 64

    public init(_ rules: [String: FlagRule]) {
        self.init(Array(rules.values))
    }

    /// The table of `rules`, each under its own key; of two rules with the same key the later one counts. Every
    /// bucket is made at its final size (the rules are counted per bucket first), so none grows by rehashing, and
    /// the rules are read in the order they lie in memory.
    init(_ rules: [FlagRule]) {
        var bits = 0
        while (1 << bits) * RuleTable.rulesPerBucket < rules.count { bits += 1 }
        bucketBits = bits
        let bucketOfRule = rules.map { RuleTable.bucket(of: $0.key, bits: bits) }
        var sizes = [Int](repeating: 0, count: 1 << bits)
        for bucket in bucketOfRule { sizes[bucket] += 1 }
        var buckets = sizes.map { [String: FlagRule](minimumCapacity: $0) }
        for (bucket, rule) in zip(bucketOfRule, rules) { buckets[bucket][rule.key] = rule }
        self.buckets = buckets
        count = buckets.reduce(0) { $0 + $1.count }
    }

    public subscript(key: String) -> FlagRule? {
        get { buckets[RuleTable.bucket(of: key, bits: bucketBits)][key] }
        set {
            let bucket = RuleTable.bucket(of: key, bits: bucketBits)
            if let newValue {
                if buckets[bucket].updateValue(newValue, forKey: key) == nil { count += 1 }
            } else if buckets[bucket].removeValue(forKey: key) != nil {
                count -= 1
            }
        }
    }

    /// Every rule, in no particular order.
    public var values: some Sequence<FlagRule> { buckets.lazy.flatMap(\.values) }

    /// Every key, in no particular order.
    public var keys: some Sequence<String> { buckets.lazy.flatMap(\.keys) }

    /// The top bits of the key's hash (the flag table uses the low ones).
    private static func bucket(of key: String, bits: Int) -> Int {
        bits == 0 ? 0 : key.withUTF8Bytes { Int(truncatingIfNeeded: KeyHash.hash($0) >> UInt64(64 - bits)) }
    }
}
