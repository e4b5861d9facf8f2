import Testing
@testable import VouchHTTP

/// The ring behind `HTTPStream`: bytes come out in the order they went in, across wrap-arounds and growth, and never
/// past the limit.
@Suite struct ByteQueueTests {
    static func append(_ bytes: [UInt8], to queue: inout ByteQueue) -> Bool {
        var bytes = bytes
        return bytes.withUnsafeMutableBytes { queue.append(LentMemory(memory: $0)) }
    }

    static func pop(_ maximum: Int, from queue: inout ByteQueue) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: maximum)
        let moved = out.withUnsafeMutableBytes { queue.pop(into: LentMemory(memory: $0)) }
        return Array(out.prefix(moved))
    }

    @Test func bytesComeOutInOrderAcrossWrapAroundAndGrowth() {
        var queue = ByteQueue(limit: 8_192)
        var written: [UInt8] = []
        var read: [UInt8] = []
        var next: UInt8 = 0
        // Uneven pieces in and out, so the head and tail wrap at every offset and the ring grows while wrapped.
        for round in 0..<400 {
            let piece = (0..<(round % 37 + round / 50 * 40)).map { _ in next &+= 1; return next }
            #expect(ByteQueueTests.append(piece, to: &queue))
            written += piece
            read += ByteQueueTests.pop(round % 29 + 5 + round / 50 * 40, from: &queue)
        }
        #expect(queue.count < 8_192)
        read += ByteQueueTests.pop(queue.count, from: &queue)
        #expect(read.count == written.count)
        #expect(read.elementsEqual(written))
        #expect(queue.count == 0)
    }

    @Test func anAppendPastTheLimitTakesNothing() {
        var queue = ByteQueue(limit: 1_000)
        #expect(ByteQueueTests.append(Array(repeating: 1, count: 600), to: &queue))
        #expect(!ByteQueueTests.append(Array(repeating: 2, count: 401), to: &queue))
        #expect(queue.count == 600)
        #expect(ByteQueueTests.append(Array(repeating: 3, count: 400), to: &queue))
        #expect(ByteQueueTests.pop(2_000, from: &queue) == Array(repeating: 1, count: 600) + Array(repeating: 3, count: 400))
        queue.removeAll()
        #expect(ByteQueueTests.pop(10, from: &queue) == [])
    }
}
