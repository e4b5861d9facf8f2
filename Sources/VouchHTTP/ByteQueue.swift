/// The bytes a stream holds for its client: a ring that grows by doubling up to a limit, so a client that does not
/// read cannot make it grow past the limit. Emptied, it gives its memory back: a stream waits far longer than it
/// sends, and tens of thousands wait at once (an allocation per burst of sends costs less than keeping them all).
///
/// Not thread-safe: `HTTPStream` keeps it under its lock.
struct ByteQueue: ~Copyable {
    /// Past this many queued bytes, `append` refuses.
    let limit: Int
    private var storage: UnsafeMutableRawPointer?
    /// A power of two, so positions wrap with a mask; 0 while nothing is queued.
    private(set) var capacity = 0
    private var head = 0
    private(set) var count = 0

    /// The first allocation, which holds a few events.
    private static let initialCapacity = 512

    init(limit: Int) {
        self.limit = limit
    }

    deinit {
        storage?.deallocate()
    }

    /// Appends all of `bytes`, or nothing when they would take the queue past its limit.
    mutating func append(_ lent: LentMemory) -> Bool {
        let bytes = UnsafeRawBufferPointer(lent.memory)
        guard count + bytes.count <= limit else { return false }
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return true }
        if count + bytes.count > capacity { grow(toHold: count + bytes.count) }
        guard let storage else { return false }
        let tail = (head + count) & (capacity - 1)
        let first = min(bytes.count, capacity - tail)
        (storage + tail).copyMemory(from: source, byteCount: first)
        if first < bytes.count { storage.copyMemory(from: source + first, byteCount: bytes.count - first) }
        count += bytes.count
        return true
    }

    /// Moves as many bytes as fit, oldest first, to `destination`; how many it moved.
    mutating func pop(into destination: LentMemory) -> Int {
        guard let start = destination.memory.baseAddress else { return 0 }
        let moved = copy(into: start, maximum: destination.memory.count)
        guard moved > 0 else { return 0 }
        head = (head + moved) & (capacity - 1)
        count -= moved
        if count == 0 {
            head = 0
            release()
        }
        return moved
    }

    mutating func removeAll() {
        head = 0
        count = 0
        release()
    }

    private func copy(into destination: UnsafeMutableRawPointer, maximum: Int) -> Int {
        let moved = min(count, maximum)
        guard moved > 0, let storage else { return 0 }
        let first = min(moved, capacity - head)
        destination.copyMemory(from: storage + head, byteCount: first)
        if first < moved { (destination + first).copyMemory(from: storage, byteCount: moved - first) }
        return moved
    }

    private mutating func grow(toHold needed: Int) {
        var grown = max(ByteQueue.initialCapacity, capacity)
        while grown < needed { grown *= 2 }
        let larger = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 1)
        _ = copy(into: larger, maximum: count)
        storage?.deallocate()
        storage = larger
        capacity = grown
        head = 0
    }

    private mutating func release() {
        storage?.deallocate()
        storage = nil
        capacity = 0
    }
}

/// Memory a caller lends the queue for one call: the bytes of a send, or libmicrohttpd's buffer for a chunk.
///
/// `@unchecked Sendable`: only so it may cross into the stream's `Mutex`; it is used inside that one call, on the
/// caller's thread, and never kept.
struct LentMemory: @unchecked Sendable {
    let memory: UnsafeMutableRawBufferPointer
}
