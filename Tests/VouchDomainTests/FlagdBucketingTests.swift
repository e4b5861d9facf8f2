import Testing
import VouchDomain

/// One row of Fixtures/flagd-bucketing-vectors.tsv: flagd's `fractional`, computed with the libraries flagd's
/// Python evaluator uses (cbor2, mmh3) and checked against that evaluator.
struct FlagdBucketingVector: Sendable, CustomTestStringConvertible {
    struct BadRow: Error { var row: [String] }

    var flagKey: String
    var targetingKey: String
    var cbor: [UInt8]
    var hash: UInt32
    var bucket: Int

    var testDescription: String { "[\(flagKey.prefix(30)), \(targetingKey.prefix(30))]" }

    static func all() throws -> [FlagdBucketingVector] {
        try Fixture.rows("flagd-bucketing-vectors.tsv").map { row in
            guard row.count == 5, let cbor = bytes(hex: row[2]), let hash = UInt32(row[3]), let bucket = Int(row[4]) else { throw BadRow(row: row) }
            return FlagdBucketingVector(flagKey: expand(row[0]), targetingKey: expand(row[1]), cbor: cbor, hash: hash, bucket: bucket)
        }
    }

    /// `k*300` stands for 300 letters k.
    private static func expand(_ text: String) -> String {
        let parts = text.split(separator: "*")
        guard parts.count == 2, let count = Int(parts[1]) else { return text }
        return String(repeating: String(parts[0]), count: count)
    }

    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        return stride(from: 0, to: digits.count, by: 2).compactMap { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16) }
    }
}

@Suite struct FlagdBucketingTests {
    @Test func fixtureCoversEveryHeadLength() throws {
        let vectors = try FlagdBucketingVector.all()
        let lengths = vectors.flatMap { [$0.flagKey.utf8.count, $0.targetingKey.utf8.count] }
        #expect(lengths.contains { $0 < 24 } && lengths.contains { (24..<256).contains($0) } && lengths.contains { $0 >= 256 })
        #expect(vectors.contains { $0.targetingKey.unicodeScalars.contains { !$0.isASCII } })
    }

    @Test(arguments: try FlagdBucketingVector.all())
    func matchesVector(vector: FlagdBucketingVector) {
        #expect(CanonicalCBOR.encode(.array([.text(vector.flagKey), .text(vector.targetingKey)])) == vector.cbor)
        #expect(Murmur3.hash32(vector.cbor) == vector.hash)
        #expect(Bucketing.flagd.bucket(flagKey: vector.flagKey, targetingKey: vector.targetingKey) == vector.bucket)
        #expect(Bucketing.flagd.isIncluded(flagKey: vector.flagKey, targetingKey: vector.targetingKey, percentage: vector.bucket))
        #expect(!Bucketing.flagd.isIncluded(flagKey: vector.flagKey, targetingKey: vector.targetingKey, percentage: vector.bucket - 1))
    }

    /// Canonical heads (RFC 8949, 4.2.1, and its appendix A's examples): the count in the fewest bytes.
    @Test(arguments: [
        (CanonicalCBOR.Value.text(""), [0x60]),
        (.text("a"), [0x61, 0x61]),
        (.text("IETF"), [0x64, 0x49, 0x45, 0x54, 0x46]),
        (.text("\u{00fc}"), [0x62, 0xc3, 0xbc]),
        (.text("水"), [0x63, 0xe6, 0xb0, 0xb4]),
        (.array([]), [0x80]),
        (.array([.text("a"), .array([.text("b")])]), [0x82, 0x61, 0x61, 0x81, 0x61, 0x62]),
    ] as [(CanonicalCBOR.Value, [UInt8])])
    func encodesAsRFC8949(value: CanonicalCBOR.Value, expected: [UInt8]) {
        #expect(CanonicalCBOR.encode(value) == expected)
    }

    @Test(arguments: [(23, [0x77]), (24, [0x78, 24]), (255, [0x78, 0xff]), (256, [0x79, 0x01, 0x00]), (65_535, [0x79, 0xff, 0xff]),
                      (65_536, [0x7a, 0x00, 0x01, 0x00, 0x00])])
    func textHeadAtEachBoundary(length: Int, head: [UInt8]) {
        let encoded = CanonicalCBOR.encode(.text(String(repeating: "k", count: length)))
        #expect(Array(encoded.prefix(head.count)) == head)
        #expect(encoded.count == head.count + length)
    }

    /// The bucket is flagd's `(hash × total weight) >> 32` with the weights `[p, 100 - p]`, not a remainder.
    @Test func bucketIsTheHashScaledToAHundred() throws {
        for vector in try FlagdBucketingVector.all() {
            #expect(Int((UInt64(vector.hash) * 100) >> 32) + 1 == vector.bucket)
        }
    }
}
