/// How a phased rollout puts targeting keys into 100 buckets; a key is in when its bucket (1...100) is at most the
/// percentage, so a key once in stays in as the percentage grows. docs/decisions.md, "Bucketing flagd agrees with".
public enum Bucketing: String, Sendable, CaseIterable {
    /// flagd's `fractional` with the weights `[p, 100 - p]`: murmur3 (x86, 32-bit, seed 0) of the canonical CBOR array
    /// `[flagKey, targetingKey]`, bucket `(hash × 100) >> 32` + 1. Every rollout started since flagd's bridge.
    case flagd
    /// Unleash's normalisation, `murmur3(flagKey + ":" + targetingKey) % 100 + 1`: kept by rollouts that were in
    /// progress when Vouch moved to flagd's bucketing, until they end. No JsonLogic reproduces it.
    case unleash

    /// The key's bucket, in 1...100.
    public func bucket(flagKey: String, targetingKey: String) -> Int {
        flagKey.withUTF8Bytes { flagKey in targetingKey.withUTF8Bytes { key in bucket(flagKey: flagKey, targetingKey: key) } }
    }

    /// The same from the bytes of both parts, hashed in place: nothing is joined or allocated.
    @inline(__always)
    func bucket(flagKey: UnsafeRawBufferPointer, targetingKey: UnsafeRawBufferPointer) -> Int {
        bucket(prefix: prefix(flagKey: flagKey), targetingKey: targetingKey)
    }

    /// The hash of what comes before the targeting key (the flag's part), which the bucket of every key of one flag
    /// starts from: the snapshot keeps it with the flag's record in key order, so a bulk evaluation does not read the
    /// flag key's bytes (`RecordsInKeyOrder`).
    @inline(__always)
    func prefix(flagKey: UnsafeRawBufferPointer) -> Murmur3.Accumulator {
        var hash = Murmur3.Accumulator()
        switch self {
        case .flagd:
            CanonicalCBOR.addArrayHeader(count: 2, to: &hash)
            CanonicalCBOR.addText(flagKey, to: &hash)
        case .unleash:
            hash.add(flagKey)
            hash.add(UInt8(ascii: ":"))
        }
        return hash
    }

    /// The key's bucket from the flag's `prefix`.
    @inline(__always)
    func bucket(prefix: Murmur3.Accumulator, targetingKey: UnsafeRawBufferPointer) -> Int {
        var hash = prefix
        switch self {
        case .flagd:
            CanonicalCBOR.addText(targetingKey, to: &hash)
            return Int((UInt64(hash.finish()) &* 100) >> 32) + 1
        case .unleash:
            hash.add(targetingKey)
            return Int(hash.finish() % 100) + 1
        }
    }

    public func isIncluded(flagKey: String, targetingKey: String, percentage: Int) -> Bool {
        bucket(flagKey: flagKey, targetingKey: targetingKey) <= percentage
    }
}
