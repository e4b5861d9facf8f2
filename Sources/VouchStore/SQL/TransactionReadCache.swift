/// Rows a write transaction read that its later statements may reuse instead of reading them again, each reuse
/// confirmed by a deferred check (docs/storage.md, "Reads shared by a batch").
///
/// On PostgreSQL a read is a round trip, and a group commit's members each read the same fix: the first member's read
/// is kept here and the others send a check with their writes instead. The connection empties it when a transaction
/// begins or ends, so nothing outlives the transaction whose lock made it true. SQLite, where a read costs no round
/// trip, keeps none.
public final class TransactionReadCache {
    private var rows: [String: Any] = [:]

    public init() {}

    public subscript<Value>(key: String, as type: Value.Type = Value.self) -> Value? {
        get { rows[key] as? Value }
        set { rows[key] = newValue }
    }

    func removeAll() {
        rows.removeAll(keepingCapacity: true)
    }
}
