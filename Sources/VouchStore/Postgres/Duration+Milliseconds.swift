extension Duration {
    /// Whole milliseconds, rounded up, so a wait never ends just before its deadline.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    }
}
