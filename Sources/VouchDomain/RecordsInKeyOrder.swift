/// The flag table's records again, in the order of the flag keys (`EvaluationSnapshot.orderedKeys`), each with its
/// slot and the hash of its bucketing's flag part: everything a bulk evaluation reads about a flag, one record after
/// the other.
///
/// A bulk evaluation answers every flag in key order, and the flag table is in hash order, so reading the table
/// there took one random slot per flag, a cache miss (and a TLB miss) apiece once the table outgrows the caches
/// (64 MiB at a million fixes); a phased flag's bucket read its key's bytes, another miss. Read here, the records
/// come in the order they are needed, from memory the processor fetches ahead. It costs 48 bytes a flag, kept in
/// chunks like the table, so a swap that changes a rule copies the chunk list and one chunk (docs/architecture.md,
/// "The OFREP hot path").
struct RecordsInKeyOrder: Sendable {
    struct Entry: Sendable {
        var record: FlagRecord
        /// `Bucketing.prefix(flagKey:)` of the flag, by its record's bucketing, when its state buckets keys
        /// (`releasing`); an empty hash otherwise, never read.
        var bucketPrefix: Murmur3.Accumulator
    }

    /// Every chunk holds `perChunk` entries but the last, which holds the rest (at least one).
    private var chunks: [[Entry]] = []
    private(set) var count = 0

    /// Entries per chunk: 48 KiB.
    static let chunkBits = 10
    static let perChunk = 1 << chunkBits

    subscript(position: Int) -> Entry {
        get { chunks[position >> Self.chunkBits][position & (Self.perChunk - 1)] }
        set { chunks[position >> Self.chunkBits][position & (Self.perChunk - 1)] = newValue }
    }

    /// Puts a record at `position` (at most `count`), moving those from there on one place up. Appending (as the
    /// build does) writes the last chunk only; an insertion before the end moves every later record, as inserting
    /// the key into the snapshot's list of keys does.
    mutating func insert(_ record: Entry, at position: Int) {
        if position == count && count & (Self.perChunk - 1) != 0 {
            // An append into the last chunk's room (the build's every record but each chunk's first): a plain append,
            // which `insert(_:at:)` at the end is not.
            chunks[chunks.count - 1].append(record)
            count += 1
            return
        }
        var carried = record
        var chunk = position >> Self.chunkBits
        var offset = position & (Self.perChunk - 1)
        count += 1
        while chunk < chunks.count {
            chunks[chunk].insert(carried, at: offset)
            if chunks[chunk].count <= Self.perChunk { return }
            carried = chunks[chunk].removeLast()
            chunk += 1
            offset = 0
        }
        var last: [Entry] = []
        last.reserveCapacity(Self.perChunk)
        last.append(carried)
        chunks.append(last)
    }

    /// Calls `body` with each entry and its position, in order.
    @inline(__always)
    func forEach(_ body: (_ position: Int, _ entry: Entry) -> Void) {
        var position = 0
        for chunk in chunks {
            chunk.withUnsafeBufferPointer { records in
                for record in records {
                    body(position, record)
                    position += 1
                }
            }
        }
    }
}
