import Testing
@testable import VouchHTTP

/// What a parked stream holds: the pages of libmicrohttpd's buffer it was lent are given back as it parks, and its
/// queue keeps no memory once drained (docs/architecture.md, "Answers that wait").
@Suite struct HTTPStreamMemoryTests {
    static let page = 4_096

    /// A page-aligned buffer standing for the one libmicrohttpd lends the reader, filled with `fill`.
    final class Lent {
        let memory: UnsafeMutableRawPointer
        let size: Int

        init(pages: Int, fill: UInt8) {
            size = pages * HTTPStreamMemoryTests.page
            memory = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: HTTPStreamMemoryTests.page)
            memory.initializeMemory(as: UInt8.self, repeating: fill, count: size)
        }

        deinit { memory.deallocate() }

        func byte(_ offset: Int) -> UInt8 { memory.load(fromByteOffset: offset, as: UInt8.self) }
        func set(_ offset: Int, _ value: UInt8) { memory.storeBytes(of: value, toByteOffset: offset, as: UInt8.self) }
        /// Reads from the stream into the buffer from `offset` on, to its end.
        func read(_ stream: HTTPStream, from offset: Int) -> Int { stream.read(into: memory + offset, maximum: size - offset) }
    }

    @Test func aParkingStreamGivesBackTheWholePagesOfItsBufferAndLaterOnlyThoseItsChunksReached() {
        let stream = HTTPStream()
        let lent = Lent(pages: 6, fill: 0xAB)
        // The reader is lent the buffer from 100 bytes in: the partial first page and last page stay as they were.
        #expect(lent.read(stream, from: 100) == 0, "nothing queued: the stream parks")
        #expect(lent.byte(100) == 0xAB && lent.byte(HTTPStreamMemoryTests.page - 1) == 0xAB, "the partial first page is kept")
        #expect((1..<6).allSatisfy { lent.byte($0 * HTTPStreamMemoryTests.page) == 0 && lent.byte($0 * HTTPStreamMemoryTests.page + 4_095) == 0 },
                "every whole page of the lent buffer reads as given back")

        // A small chunk (an event) written and sent: parking again leaves pages its bytes never reached alone.
        lent.set(2 * HTTPStreamMemoryTests.page, 0x11)
        let event = Array(repeating: UInt8(0x42), count: 150)
        #expect(stream.send(event))
        #expect(lent.read(stream, from: 100) == 150)
        #expect(lent.byte(100) == 0x42)
        #expect(lent.read(stream, from: 100) == 0)
        #expect(lent.byte(2 * HTTPStreamMemoryTests.page) == 0x11, "a page no chunk reached is not given back again")

        // A chunk that reaches into later pages: those are given back when the stream parks.
        #expect(stream.send(Array(repeating: 0x43, count: 3 * HTTPStreamMemoryTests.page)))
        #expect(lent.read(stream, from: 100) == 3 * HTTPStreamMemoryTests.page)
        #expect(lent.byte(2 * HTTPStreamMemoryTests.page) == 0x43)
        #expect(lent.read(stream, from: 100) == 0)
        #expect((1...2).allSatisfy { lent.byte($0 * HTTPStreamMemoryTests.page) == 0 })
        #expect(lent.byte(3 * HTTPStreamMemoryTests.page) == 0x43, "the page the chunk ends in is kept")
        stream.finish()
    }

    @Test func aDrainedQueueKeepsNoMemory() {
        var queue = ByteQueue(limit: 65_536)
        #expect(queue.capacity == 0)
        #expect(ByteQueueTests.append(Array(repeating: 7, count: 150), to: &queue))
        #expect(queue.capacity >= 150)
        #expect(ByteQueueTests.pop(100, from: &queue).count == 100)
        #expect(queue.capacity > 0, "bytes still queued keep their memory")
        #expect(ByteQueueTests.pop(100, from: &queue).count == 50)
        #expect(queue.capacity == 0)
    }
}
