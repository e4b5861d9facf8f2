import CMicroHTTPD
import Synchronization

/// The body of a `.stream` reply (server-sent events, say): any thread queues bytes with `send`, and the
/// connection's libmicrohttpd thread writes them to the client as chunks.
///
/// While nothing is queued the connection is suspended ("parked") and holds no thread; `send` resumes it. Parking,
/// waking and ending all happen under the stream's own lock, so a send between "the queue is empty" and "parked" is
/// never lost, and no lock shared between streams is held while one is written (docs/architecture.md, "Answers that wait").
public final class HTTPStream: Sendable {
    /// Bytes queued and not yet written. A send that would pass it ends the stream as too slow, so a client that does
    /// not read holds this much of the server's memory at most (a single larger send ends the stream too).
    public static let maxQueuedBytes = 64 * 1024

    /// What libmicrohttpd writes after a chunk's data in the reader's buffer (its CRLF), with room to spare.
    static let chunkFramingBytes = 16

    struct State: ~Copyable {
        var queue = ByteQueue(limit: HTTPStream.maxQueuedBytes)
        /// Until `finish`, a cut, or the end of the connection; `send` refuses after.
        var isOpen = true
        /// Ended by a client too slow or gone: what is queued is dropped, and the connection closed.
        var isCut = false
        var isAttached = false
        /// The connection while libmicrohttpd holds the response; nil before and after.
        var connection: SuspendableConnection?
        /// The reader found nothing to write and suspended the connection; whoever clears this resumes it.
        var isParked = false
        /// Set when the connection is woken: the reader looks whether the client left while it was parked.
        var checkPeerOnWake = false
        /// The server's list of open streams, from when it registered the stream until the stream ends.
        var registry: ReplyRegistry?
        /// The buffer libmicrohttpd lent the reader last (its address), and how many of its first bytes may have
        /// been written since its pages were last given back: all of them (`Int.max`) until the reader has parked
        /// once with that buffer, since libmicrohttpd clears it before lending it.
        var lentAddress: UInt = 0
        var writtenSinceRelease = Int.max
    }

    enum Ending {
        case finished, tooSlow, connectionEnded
    }

    /// What the thread that ended a stream does once the lock is released.
    struct Ended {
        let registry: ReplyRegistry?
        let tooSlow: Bool
    }

    let state = Mutex(State())
    private let onClose: @Sendable () -> Void

    /// `onClose` runs exactly once when the stream ends for any reason (client gone, `finish`, server stopping), from whatever
    /// thread noticed; use it to unregister the stream.
    public init(onClose: @escaping @Sendable () -> Void = {}) {
        self.onClose = onClose
    }

    /// Queues bytes and wakes the connection if it is parked. False (and nothing queued) once the stream has ended.
    @discardableResult public func send(_ bytes: [UInt8]) -> Bool {
        let (queued, ended) = bytes.withUnsafeBytes { bytes in
            let lent = LentMemory(memory: UnsafeMutableRawBufferPointer(mutating: bytes))
            return state.withLock { state -> (Bool, Ended?) in
                guard state.isOpen else { return (false, nil) }
                guard state.queue.append(lent) else { return (false, state.end(.tooSlow)) }
                state.wake()
                return (true, nil)
            }
        }
        if let ended { closed(ended) }
        return queued
    }

    /// Ends the body after what is queued.
    public func finish() {
        if let ended = state.withLock({ $0.end(.finished) }) { closed(ended) }
    }

    public var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Bytes queued and not yet handed to libmicrohttpd.
    var queuedBytes: Int { state.withLock { $0.queue.count } }

    /// The handler answered with this stream on `connection`; false when it already answered another request.
    func attach(to connection: SuspendableConnection) -> Bool {
        state.withLock { state in
            guard !state.isAttached else { return false }
            state.isAttached = true
            state.connection = connection
            return true
        }
    }

    /// Called by `ReplyRegistry` under its lock: false when the stream has ended already and needs no registering.
    func register(with registry: ReplyRegistry) -> Bool {
        state.withLock { state in
            guard state.isOpen else { return false }
            state.registry = registry
            return true
        }
    }

    /// libmicrohttpd's content reader, on the connection's thread: the next bytes, the end, or 0 after parking.
    func read(into buffer: UnsafeMutableRawPointer, maximum: Int) -> Int {
        let lent = LentMemory(memory: UnsafeMutableRawBufferPointer(start: buffer, count: maximum))
        let (result, ended) = state.withLock { state -> (Int, Ended?) in
            var ended: Ended?
            if state.checkPeerOnWake {
                state.checkPeerOnWake = false
                if state.connection?.peerHasClosed == true { ended = state.end(.connectionEnded) }
            }
            if state.isCut { return (vouch_mhd_end_with_error(), ended) }
            let moved = state.queue.pop(into: lent)
            if moved > 0 {
                state.wrote(moved, into: lent)
                return (moved, ended)
            }
            if !state.isOpen { return (vouch_mhd_end_of_stream(), ended) }
            // The buffer is most of the connection's memory, and a stream waits far longer than it writes.
            state.giveBackPages(of: lent)
            // Suspended under the lock: a send can only see `isParked` once the connection really is suspended,
            // and libmicrohttpd forbids resuming a connection that is not.
            state.isParked = true
            state.connection?.suspend()
            return (0, ended)
        }
        if let ended { closed(ended) }
        return result
    }

    /// libmicrohttpd let go of the response (the body ended, the client left, the server stopped): the connection
    /// may be closed from here on, so it is never touched again.
    func detach() {
        let ended = state.withLock { state -> Ended? in
            state.connection = nil
            state.isParked = false
            return state.end(.connectionEnded)
        }
        if let ended { closed(ended) }
    }

    private func closed(_ ended: Ended) {
        ended.registry?.streamEnded(self, tooSlow: ended.tooSlow)
        onClose()
    }
}

extension HTTPStream.State {
    /// The reader wrote `count` bytes at the start of `buffer`; libmicrohttpd then frames them as a chunk, writing a
    /// few bytes after them too.
    mutating func wrote(_ count: Int, into buffer: LentMemory) {
        let address = UInt(bitPattern: buffer.memory.baseAddress)
        guard address == lentAddress else {
            lentAddress = address
            writtenSinceRelease = .max
            return
        }
        if writtenSinceRelease < .max { writtenSinceRelease = max(writtenSinceRelease, count + HTTPStream.chunkFramingBytes) }
    }

    /// Gives the kernel back the whole pages of the reader's buffer written since the last time, as the stream parks
    /// (`vouch_release_pages`): libmicrohttpd lends the reader nearly all of the connection's memory
    /// (`RequestLimits.connectionMemoryBytes`) and has cleared it, so a parked stream would otherwise hold all of it.
    /// After the first time only the pages a chunk reached are given back, so an event or keep-alive of a few dozen
    /// bytes mostly costs no system call.
    mutating func giveBackPages(of buffer: LentMemory) {
        guard let start = buffer.memory.baseAddress else { return }
        let address = UInt(bitPattern: start)
        let written = address == lentAddress ? writtenSinceRelease : .max
        lentAddress = address
        writtenSinceRelease = 0
        if written > 0 { _ = vouch_release_pages(start, min(written, buffer.memory.count)) }
    }

    /// Resumes a parked connection. Under the stream's lock, so the server's `stop` knows that once it has ended a
    /// stream, its connection is no longer suspended.
    mutating func wake() {
        guard isParked else { return }
        isParked = false
        checkPeerOnWake = true
        connection?.resume()
    }

    /// Ends the stream; what the caller must do once the lock is released, or nil when it had ended before.
    mutating func end(_ ending: HTTPStream.Ending) -> HTTPStream.Ended? {
        if ending != .finished, !isCut {
            isCut = true
            queue.removeAll()
            // A parked connection is woken below and ends itself; one blocked on a full socket needs its write to fail.
            if ending == .tooSlow, !isParked { connection?.shutDown() }
        }
        wake()
        guard isOpen else { return nil }
        isOpen = false
        defer { registry = nil }
        return HTTPStream.Ended(registry: registry, tooSlow: ending == .tooSlow)
    }
}
