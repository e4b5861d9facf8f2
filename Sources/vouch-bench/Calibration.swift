/// Reference figures for the machine at the time of the run, since in-process figures have no in-run reference
/// (the HTTP figures have nginx): evaluation is bound by memory latency, so a run on a host whose memory is
/// busy with other guests is slower without any change in Vouch. Compare these between runs before comparing the rest.
enum Calibration {
    static func run() {
        Report.line("Reference dependent random read, 4 MiB working set, ns", Report.fixed(chase(bytes: 4 << 20)))
        Report.line("Reference dependent random read, 64 MiB working set, ns", Report.fixed(chase(bytes: 64 << 20)))
    }

    /// Nanoseconds per step of a pointer chase through one random cycle over `bytes` of Int32 slots:
    /// each read depends on the one before, as in a hash table probe that follows a pointer.
    static func chase(bytes: Int) -> Double {
        let count = bytes / MemoryLayout<Int32>.stride
        var order = Array(0..<count)
        var random = SplitMix64(seed: 99)
        order.shuffle(using: &random)
        var next = [Int32](repeating: 0, count: count)
        for index in 0..<count { next[order[index]] = Int32(order[(index + 1) % count]) }
        let steps = 2_000_000
        var position = 0
        var best = Double.infinity
        let clock = ContinuousClock()
        // Three passes, the best kept: the first also pays for faulting pages in and filling the TLB.
        for _ in 0..<3 {
            let start = clock.now
            next.withUnsafeBufferPointer { slots in
                for _ in 0..<steps { position = Int(slots[position]) }
            }
            best = min(best, Report.nanoseconds(clock.now - start) / Double(steps))
        }
        Checksum.fold(position)
        return best
    }
}
