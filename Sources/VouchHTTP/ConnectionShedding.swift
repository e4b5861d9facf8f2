/// When the server nears its connection cap, connections waiting for a request (idle kept-alive ones,
/// and ones whose headers have not arrived) are shut down, the longest-waiting first, so a new client
/// still finds a place instead of waiting in the kernel's backlog behind connections that send nothing.
struct ConnectionShedding: Equatable {
    /// Shedding starts when this many connections are open...
    let highWater: Int
    /// ...and shuts down enough of them to come back to this many.
    let lowWater: Int

    /// An eighth of the cap kept free, and a quarter freed once it is not.
    init(capacity: Int) {
        highWater = max(1, capacity - max(1, capacity / 8))
        lowWater = max(0, min(highWater - 1, capacity - max(2, capacity / 4)))
    }

    /// A connection is never shed sooner after it began waiting: its request may be on its way, and on a fresh
    /// connection it usually arrives with the connection itself.
    static let minimumWaitMilliseconds = 20

    /// How many waiting connections to shut down when `open` connections are open.
    func excess(open: Int) -> Int {
        open >= highWater ? open - lowWater : 0
    }
}
