import Testing
import VouchDomain

/// One row of Fixtures/bucketing-vectors.tsv: Unleash's bucketing, which rollouts begun before the flagd bridge keep.
struct BucketingVector: Sendable, CustomTestStringConvertible {
    struct BadRow: Error { var row: [String] }

    var group: String
    var targetingKey: String
    /// Nil where the fixture gives `-` (only the bucket is published).
    var hash: UInt32?
    var bucket: Int

    var testDescription: String { "\(group):\(targetingKey)" }

    static func all() throws -> [BucketingVector] {
        try Fixture.rows("bucketing-vectors.tsv").map { row in
            guard row.count == 4, let bucket = Int(row[3]) else { throw BadRow(row: row) }
            let hash: UInt32?
            if row[2] == "-" {
                hash = nil
            } else {
                guard let value = UInt32(row[2]) else { throw BadRow(row: row) }
                hash = value
            }
            return BucketingVector(group: row[0], targetingKey: row[1], hash: hash, bucket: bucket)
        }
    }
}

@Suite struct BucketingTests {
    @Test func fixtureHasVectors() throws {
        let vectors = try BucketingVector.all()
        #expect(vectors.count >= 5)
        #expect(vectors.contains { $0.group == "gr1" && $0.targetingKey == "123" && $0.bucket == 73 })
    }

    @Test(arguments: try BucketingVector.all())
    func matchesVector(vector: BucketingVector) {
        if let hash = vector.hash {
            #expect(Murmur3.hash32(Array("\(vector.group):\(vector.targetingKey)".utf8)) == hash)
        }
        #expect(Bucketing.unleash.bucket(flagKey: vector.group, targetingKey: vector.targetingKey) == vector.bucket)
        #expect(Bucketing.unleash.isIncluded(flagKey: vector.group, targetingKey: vector.targetingKey, percentage: vector.bucket))
        #expect(!Bucketing.unleash.isIncluded(flagKey: vector.group, targetingKey: vector.targetingKey, percentage: vector.bucket - 1))
    }

    @Test(arguments: Bucketing.allCases, ["tv-channel-selector-labels", "gr1"])
    func onceInStaysInAsPercentageGrows(bucketing: Bucketing, flagKey: String) {
        for user in 0..<200 {
            let key = "user-\(user)"
            #expect(!bucketing.isIncluded(flagKey: flagKey, targetingKey: key, percentage: 0))
            #expect(bucketing.isIncluded(flagKey: flagKey, targetingKey: key, percentage: 100))
            for percentage in 0..<100 where bucketing.isIncluded(flagKey: flagKey, targetingKey: key, percentage: percentage) {
                #expect(bucketing.isIncluded(flagKey: flagKey, targetingKey: key, percentage: percentage + 1), "\(key) left at \(percentage + 1) %")
            }
        }
    }

    @Test(arguments: Bucketing.allCases)
    func bucketsAreInRangeAndSpread(bucketing: Bucketing) {
        let buckets = (0..<2_000).map { bucketing.bucket(flagKey: "settings-screen-labels", targetingKey: "user-\($0)") }
        #expect(buckets.allSatisfy { (1...100).contains($0) })
        let inAtHalf = buckets.filter { $0 <= 50 }.count
        #expect((800...1_200).contains(inAtHalf))
    }

    @Test(arguments: Bucketing.allCases)
    func flagKeyChangesTheBucketing(bucketing: Bucketing) {
        let keys = (0..<50).map { "user-\($0)" }
        let first = keys.map { bucketing.bucket(flagKey: "fix-a", targetingKey: $0) }
        let second = keys.map { bucketing.bucket(flagKey: "fix-b", targetingKey: $0) }
        #expect(first != second)
    }

    /// The two schemes put keys in different buckets: that is why a rollout keeps the one it began with.
    @Test func schemesDiffer() {
        let keys = (0..<100).map { "user-\($0)" }
        let differing = keys.filter { Bucketing.flagd.bucket(flagKey: "gr1", targetingKey: $0) != Bucketing.unleash.bucket(flagKey: "gr1", targetingKey: $0) }
        #expect(differing.count > 80)
    }
}
