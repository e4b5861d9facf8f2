import Testing
import VouchCrypto

@Suite struct SecureRandomTests {
    private static let alphabet = Set("abcdefghijklmnopqrstuvwxyz0123456789")

    @Test(arguments: [0, 1, 32, 100])
    func bytesHaveTheRequestedCount(count: Int) {
        #expect(SecureRandom.bytes(count: count).count == count)
    }

    @Test func twoByteDrawsDiffer() {
        #expect(SecureRandom.bytes(count: 32) != SecureRandom.bytes(count: 32))
    }

    @Test(arguments: [0, 1, 24, 43, 200])
    func alphanumericHasTheRequestedLengthAndAlphabet(count: Int) {
        let text = SecureRandom.alphanumeric(count: count)
        #expect(text.count == count)
        #expect(text.utf8.count == count)
        #expect(text.allSatisfy(Self.alphabet.contains))
    }

    @Test func twoAlphanumericDrawsDiffer() {
        #expect(SecureRandom.alphanumeric(count: 32) != SecureRandom.alphanumeric(count: 32))
    }

    @Test func alphanumericUsesTheWholeAlphabet() {
        // With 20,000 characters the chance that one of 36 never appears is below 1e-200.
        #expect(Set(SecureRandom.alphanumeric(count: 20_000)) == Self.alphabet)
    }
}
