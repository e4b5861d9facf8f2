import VouchHTTP

/// The open event streams, split by id into slices that take turns at the keep-alive: each tick of the hub's timer
/// writes one slice, so every stream hears a comment once per `ofrep.stream_keepalive`, each at its own moment of
/// it, and no tick writes to every stream at once (docs/architecture.md, "Answers that wait").
///
/// Not thread-safe: the hub keeps it under its registry's lock.
struct StreamRoster {
    struct Entry {
        let tokenID: String
        let stream: HTTPStream
    }

    /// By id modulo their count; ids are given out in turn, so the slices stay even.
    private var slices: [[Int: Entry]]
    private(set) var count = 0
    /// The slice whose keep-alive is due at the next tick.
    private var nextSlice = 0

    init(sliceCount: Int) {
        slices = Array(repeating: [:], count: max(1, sliceCount))
    }

    var sliceCount: Int { slices.count }

    mutating func insert(_ entry: Entry, id: Int) {
        if slices[id % slices.count].updateValue(entry, forKey: id) == nil { count += 1 }
    }

    mutating func remove(id: Int) -> Entry? {
        guard let entry = slices[id % slices.count].removeValue(forKey: id) else { return nil }
        count -= 1
        return entry
    }

    /// Every open stream.
    var streams: [HTTPStream] {
        var streams: [HTTPStream] = []
        streams.reserveCapacity(count)
        for slice in slices { for entry in slice.values { streams.append(entry.stream) } }
        return streams
    }

    func streams(ofToken tokenID: String) -> [HTTPStream] {
        slices.flatMap { $0.values.filter { $0.tokenID == tokenID }.map(\.stream) }
    }

    /// The streams whose keep-alive is due after `ticks` more ticks of the timer: the next slice, or the next few when
    /// the timer fell behind, so no slice waits a whole turn more.
    mutating func takeTurns(_ ticks: Int) -> [HTTPStream] {
        var due: [HTTPStream] = []
        for _ in 0..<min(max(1, ticks), slices.count) {
            for entry in slices[nextSlice].values { due.append(entry.stream) }
            nextSlice = (nextSlice + 1) % slices.count
        }
        return due
    }
}
