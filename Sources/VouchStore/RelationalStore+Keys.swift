extension RelationalStore {
    public func serverKey(named name: String, generate: () -> [UInt8]) throws -> [UInt8] {
        let candidate = generate()
        return try storage.write { connection in
            // The first daemon to ask makes the key; every later one (or a second node) reads that same key.
            try connection.query("INSERT INTO server_keys (name, key, created_at_ms) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                                 [.text(name), .blob(candidate), .integer(StoreClock.nowMilliseconds())])
            return try connection.query("SELECT key FROM server_keys WHERE name = ?", [.text(name)]).first?.blob(0) ?? candidate
        }
    }
}
