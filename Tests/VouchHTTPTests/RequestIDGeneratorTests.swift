import Dispatch
import Foundation
import Synchronization
import Testing
import VouchHTTP

/// The ids every answer carries in `X-Request-Id` when the client sent none (or one that could forge a log field).
@Suite struct RequestIDGeneratorTests {
    @Test func newIdsAreThePrefixAndACounterInBase36() throws {
        let generator = RequestIDGenerator()
        let ids = (1...2_000).map { _ in generator.next() }
        let prefix = try #require(ids.first?.split(separator: "-").first)
        #expect(prefix.count == 8)
        for (index, id) in ids.enumerated() {
            #expect(id == "\(prefix)-\(String(index + 1, radix: 36))")
        }
        #expect(Set(ids).count == ids.count)
    }

    @Test func idsMadeOnSeveralThreadsAtOnceAreAllDifferent() {
        let generator = RequestIDGenerator()
        let ids = Mutex<[String]>([])
        let group = DispatchGroup()
        for _ in 0..<6 {
            group.enter()
            Thread {
                let made = (0..<1_000).map { _ in generator.next() }
                ids.withLock { $0 += made }
                group.leave()
            }.start()
        }
        group.wait()
        let all = ids.withLock { $0 }
        #expect(all.count == 6_000 && Set(all).count == 6_000)
    }

    @Test func anotherGeneratorHasAnotherPrefix() {
        // Eight letters or digits drawn at random: the same prefix twice would be a one in 36^8 chance.
        #expect(RequestIDGenerator().next() != RequestIDGenerator().next())
    }

    @Test(arguments: [("abc-123", "abc-123"), ("A.b_c:d-1", "A.b_c:d-1")])
    func aSensibleIdFromTheClientIsKept(presented: String, kept: String) {
        #expect(RequestIDGenerator().id(for: presented) == kept)
        #expect(Array(presented.utf8).withUnsafeBytes { RequestIDGenerator().id(for: $0) } == kept, "the same from the received bytes")
        #expect(Array(String(repeating: "z", count: 128).utf8).withUnsafeBytes { RequestIDGenerator().id(for: $0) }.utf8.count == 128)
    }

    @Test(arguments: ["", "has space", "new\nline", "quote\"", String(repeating: "a", count: 129), "é"])
    func anyOtherIdIsReplaced(presented: String) {
        let id = RequestIDGenerator().id(for: presented)
        #expect(id != presented)
        #expect(id.hasSuffix("-1"))
        let fromBytes = Array(presented.utf8).withUnsafeBytes { RequestIDGenerator().id(for: $0) }
        #expect(fromBytes != presented && fromBytes.hasSuffix("-1"), "the same from the received bytes")
        #expect(RequestIDGenerator().id(for: nil as UnsafeRawBufferPointer?).hasSuffix("-1"), "none received")
    }
}
