/// Unleash's normalisation of users into 100 buckets, so a phased rollout matches what Unleash users know.
public enum Bucketing {
    /// `murmur3_x86_32(group + ":" + targetingKey, seed 0) % 100 + 1`, in 1...100.
    public static func bucket(group: String, targetingKey: String) -> Int {
        group.withUTF8Bytes { group in targetingKey.withUTF8Bytes { key in bucket(group: group, targetingKey: key) } }
    }

    /// The same from the bytes of both parts, hashed in place: nothing is joined or allocated.
    static func bucket(group: UnsafeRawBufferPointer, targetingKey: UnsafeRawBufferPointer) -> Int {
        var hash = Murmur3.Accumulator()
        hash.add(group)
        hash.add(UInt8(ascii: ":"))
        hash.add(targetingKey)
        return Int(hash.finish() % 100) + 1
    }

    /// A key is in when its bucket is at most the percentage; so a key once in stays in as the percentage grows.
    public static func isIncluded(group: String, targetingKey: String, percentage: Int) -> Bool {
        bucket(group: group, targetingKey: targetingKey) <= percentage
    }
}
