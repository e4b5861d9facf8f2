/// The snapshot's rules by flag key, for writers: `SnapshotHolder` compares versions, flagd's document lists every
/// rule. Evaluation never reads them; it reads `FlagIndex`'s records.
///
/// The rules live in the index, each in the slot of its flag's record (`FlagIndex.rule(at:)`), so a look-up is the
/// probe that finds the record, and a swap copies the chunk list and the one chunk its rule is in, never every rule.
/// They were a dictionary, then buckets of dictionaries; filling those hashed and inserted every key at random, the
/// part of a start that grew fastest at a million fixes (BENCHMARKS.md, part 12).
public struct RuleTable: Sendable {
    let index: FlagIndex

    public var count: Int { index.count }

    public subscript(key: String) -> FlagRule? {
        index.slot(of: key).flatMap(index.rule(at:))
    }

    /// Every rule, in no particular order.
    public var values: some Sequence<FlagRule> { index.rules }

    /// Every key, in no particular order.
    public var keys: some Sequence<String> { index.rules.lazy.map(\.key) }
}
