/// Unleash's normalisation of users into 100 buckets, so a phased rollout matches what Unleash users know.
public enum Bucketing {
    /// `murmur3_x86_32(group + ":" + targetingKey, seed 0) % 100 + 1`, in 1...100.
    public static func bucket(group: String, targetingKey: String) -> Int {
        var bytes = Array(group.utf8)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(contentsOf: targetingKey.utf8)
        return Int(Murmur3.hash32(bytes) % 100) + 1
    }

    /// A key is in when its bucket is at most the percentage; so a key once in stays in as the percentage grows.
    public static func isIncluded(group: String, targetingKey: String, percentage: Int) -> Bool {
        bucket(group: group, targetingKey: targetingKey) <= percentage
    }
}
