/// "Did you mean …?": the closest known word to a mistyped one, by edit distance.
enum Suggestion {
    /// The candidate closest to `input`, or nil when none is close enough to be a likely typo.
    ///
    /// Leading dashes are ignored, so `--titel` finds `--title`. A candidate that starts with the input
    /// (`--exp` for `--expected-announcement`) also counts, since people abbreviate.
    static func closest(to input: String, among candidates: [String]) -> String? {
        let typed = stripped(input)
        guard !typed.isEmpty else { return nil }
        let limit = typed.count <= 4 ? 1 : (typed.count <= 8 ? 2 : 3)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != input {
            let distance = self.distance(typed, stripped(candidate))
            if distance <= limit, distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        if let best { return best.candidate }
        if typed.count >= 2 {
            return candidates.first { stripped($0).hasPrefix(typed) }
        }
        return nil
    }

    /// The optimal string alignment distance: insertions, deletions, substitutions and swaps of two
    /// neighbouring characters each cost 1 (`titel` is one step from `title`).
    static func distance(_ first: String, _ second: String) -> Int {
        let a = Array(first)
        let b = Array(second)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, table[i - 2][j - 2] + 1)
                }
                table[i][j] = value
            }
        }
        return table[a.count][b.count]
    }

    private static func stripped(_ word: String) -> String {
        String(word.drop { $0 == "-" })
    }

    /// `" Did you mean 'x'?"`, or an empty string when nothing is close.
    static func sentence(for input: String, among candidates: [String]) -> String {
        closest(to: input, among: candidates).map { " Did you mean '\($0)'?" } ?? ""
    }
}
