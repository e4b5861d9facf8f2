import Glibc
import Synchronization

/// Every open connection's phase and since when it is in it, so the reaper can shut down those past their
/// deadline, or the longest-waiting ones when the server nears its connection cap.
///
/// The request path only stores atomics in its connection's slot (no lock, no allocation); the lock is taken
/// when a connection opens or closes and when the reaper shuts one down. libmicrohttpd calls `closed` before it
/// closes the socket, so under the lock a slot's descriptor is always still that connection's: a shutdown can
/// never reach a descriptor number the kernel has since given to another socket.
///
/// `@unchecked Sendable`: the slot pointers never change and are only read or written through atomic operations;
/// the descriptors, the free list and the count are only touched under `sockets`' lock.
final class ConnectionTracker: @unchecked Sendable {
    struct Sockets {
        /// Per slot; -1 when free.
        var descriptors: [Int32]
        var free: [Int]
        var open = 0
    }

    /// What one pass of the reaper shut down.
    struct Reaped: Equatable {
        var headerDeadline = 0
        var bodyRate = 0
        var shed = 0
        /// Still near the cap, with connections too fresh to shed yet: when the oldest of them will not be.
        var retryInMilliseconds: Int?
    }

    let capacity: Int
    let deadlines: ConnectionDeadlines
    let shedding: ConnectionShedding
    /// Per slot, on a cache line of its own (`slotStride` bytes): the phase word (the phase in the top 3 bits, the
    /// milliseconds it began at in the rest), then the body bytes read. Packed eight to a line, slots of connections on
    /// different HTTP threads shared lines, and each request's two phase changes took the line from the other core.
    /// Zeroed by `calloc` (zero bytes are zero atomics), so the lines of slots never used are never backed.
    private let allocation: UnsafeMutableRawPointer
    private let slots: UnsafeMutableRawPointer
    private static let slotStride = 64
    private let sockets: Mutex<Sockets>
    /// Every connection shut down since the start, by reason; counted before the shutdown, so a client that
    /// sees its connection end already finds it counted.
    let cutByHeaderDeadline = Atomic<Int>(0)
    let cutByBodyRate = Atomic<Int>(0)
    let shed = Atomic<Int>(0)
    private let clock: @Sendable () -> Int
    /// Shuts a socket down; `shutdown(2)` outside tests.
    private let shutDown: @Sendable (Int32) -> Void

    init(capacity: Int, deadlines: ConnectionDeadlines, clock: @escaping @Sendable () -> Int = ConnectionTracker.monotonicMilliseconds,
         shutDown: @escaping @Sendable (Int32) -> Void = { _ = Glibc.shutdown($0, Int32(SHUT_RDWR)) }) {
        self.capacity = max(1, capacity)
        self.deadlines = deadlines
        self.clock = clock
        self.shutDown = shutDown
        shedding = ConnectionShedding(capacity: self.capacity)
        allocation = calloc(self.capacity + 1, ConnectionTracker.slotStride)!
        let stride = ConnectionTracker.slotStride
        slots = UnsafeMutableRawPointer(bitPattern: (Int(bitPattern: allocation) + stride - 1) & ~(stride - 1))!
        for slot in 0..<self.capacity {
            (slots + slot * stride).bindMemory(to: Atomic<UInt64>.self, capacity: 1)
            (slots + slot * stride + 8).bindMemory(to: Atomic<Int>.self, capacity: 1)
        }
        sockets = Mutex(Sockets(descriptors: Array(repeating: -1, count: self.capacity), free: Array((0..<self.capacity).reversed())))
    }

    deinit {
        free(allocation)
    }

    private func phaseWord(_ slot: Int) -> UnsafeMutablePointer<Atomic<UInt64>> {
        (slots + slot * ConnectionTracker.slotStride).assumingMemoryBound(to: Atomic<UInt64>.self)
    }

    private func bodyBytes(_ slot: Int) -> UnsafeMutablePointer<Atomic<Int>> {
        (slots + slot * ConnectionTracker.slotStride + 8).assumingMemoryBound(to: Atomic<Int>.self)
    }

    /// A connection was accepted: its slot (nil when every slot is taken), and whether the server is now near
    /// its cap, so the reaper should shed at once rather than at its next round.
    func opened(descriptor: Int32) -> (slot: Int?, crowded: Bool) {
        sockets.withLock { sockets in
            guard descriptor >= 0, let slot = sockets.free.popLast() else { return (nil, sockets.open >= shedding.highWater) }
            sockets.descriptors[slot] = descriptor
            sockets.open += 1
            enter(.waitingForRequest, slot: slot)
            return (slot, sockets.open >= shedding.highWater)
        }
    }

    /// libmicrohttpd is about to close the connection's socket.
    func closed(slot: Int) {
        sockets.withLock { sockets in
            guard sockets.descriptors[slot] >= 0 else { return }
            sockets.descriptors[slot] = -1
            sockets.free.append(slot)
            sockets.open -= 1
            phaseWord(slot).pointee.store(0, ordering: .releasing)
        }
    }

    /// The connection's request moved on: called on libmicrohttpd's thread for that connection.
    func enter(_ phase: ConnectionPhase, slot: Int) {
        if phase == .readingBody { bodyBytes(slot).pointee.store(0, ordering: .relaxed) }
        phaseWord(slot).pointee.store(phase.rawValue << 61 | UInt64(clock()), ordering: .releasing)
    }

    func received(bodyBytes count: Int, slot: Int) {
        bodyBytes(slot).pointee.add(count, ordering: .relaxed)
    }

    var openConnections: Int { sockets.withLock { $0.open } }

    /// Shuts down every connection past its deadline, then, near the cap, the longest-waiting ones.
    func reap() -> Reaped {
        let now = clock()
        var reaped = Reaped()
        var overdue: [(slot: Int, word: UInt64, isBody: Bool)] = []
        var waiting: [(slot: Int, word: UInt64)] = []
        var oldestTooFresh: Int?
        for slot in 0..<capacity {
            let word = phaseWord(slot).pointee.load(ordering: .acquiring)
            guard let phase = ConnectionPhase(rawValue: word >> 61), phase == .waitingForRequest || phase == .readingBody else { continue }
            let since = Int(word & (1 << 61 - 1))
            if deadlines.isOverdue(phase, since: since, bodyBytes: bodyBytes(slot).pointee.load(ordering: .relaxed), now: now) {
                overdue.append((slot, word, phase == .readingBody))
            } else if phase == .waitingForRequest {
                if now - since >= ConnectionShedding.minimumWaitMilliseconds {
                    waiting.append((slot, word))
                } else {
                    oldestTooFresh = min(oldestTooFresh ?? since, since)
                }
            }
        }
        let excess = shedding.excess(open: openConnections - overdue.count)
        if excess > waiting.count, let oldestTooFresh {
            reaped.retryInMilliseconds = max(1, oldestTooFresh + ConnectionShedding.minimumWaitMilliseconds - now)
        }
        // The word's low bits are the time it began waiting, so the smallest words have waited longest.
        let shedding = waiting.sorted { $0.word < $1.word }.prefix(excess)
        guard !overdue.isEmpty || !shedding.isEmpty else { return reaped }
        sockets.withLock { sockets in
            for entry in overdue where shutDown(slot: entry.slot, ifStill: entry.word, sockets: sockets, for: entry.isBody ? .bodyRate : .headerDeadline) {
                if entry.isBody { reaped.bodyRate += 1 } else { reaped.headerDeadline += 1 }
            }
            for entry in shedding where shutDown(slot: entry.slot, ifStill: entry.word, sockets: sockets, for: .shed) {
                reaped.shed += 1
            }
        }
        return reaped
    }

    /// Shuts the slot's socket down when it is still open and in the state the scan saw; libmicrohttpd then
    /// reads end of file and closes it itself. Never `close`: the descriptor is libmicrohttpd's.
    private func shutDown(slot: Int, ifStill word: UInt64, sockets: borrowing Sockets, for reason: Reason) -> Bool {
        let descriptor = sockets.descriptors[slot]
        guard descriptor >= 0, phaseWord(slot).pointee.load(ordering: .acquiring) == word else { return false }
        phaseWord(slot).pointee.store(ConnectionPhase.shutDown.rawValue << 61 | UInt64(clock()), ordering: .releasing)
        switch reason {
        case .headerDeadline: cutByHeaderDeadline.add(1, ordering: .relaxed)
        case .bodyRate: cutByBodyRate.add(1, ordering: .relaxed)
        case .shed: shed.add(1, ordering: .relaxed)
        }
        shutDown(descriptor)
        return true
    }

    private enum Reason { case headerDeadline, bodyRate, shed }

    /// Milliseconds on a clock that never goes back; the coarse clock is read from the vDSO without a system call.
    static let monotonicMilliseconds: @Sendable () -> Int = {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
        return time.tv_sec * 1_000 + time.tv_nsec / 1_000_000
    }
}
