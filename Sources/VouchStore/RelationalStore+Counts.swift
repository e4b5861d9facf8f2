extension RelationalStore {
    public func operationalCounts() throws -> OperationalCounts {
        try storage.read { connection in
            func counts(_ sql: String) throws -> [String: Int] {
                Dictionary(try connection.query(sql).map { ($0.string(0), $0.int(1)) }, uniquingKeysWith: +)
            }
            return OperationalCounts(
                fixesByState: try counts("SELECT state, COUNT(*) FROM fixes GROUP BY state"),
                feedbackByVerdict: try counts("SELECT verdict, COUNT(*) FROM feedback GROUP BY verdict"),
                deliveriesByStatus: try counts("SELECT status, COUNT(*) FROM webhook_deliveries GROUP BY status"))
        }
    }
}
