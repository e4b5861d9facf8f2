import Foundation
import VouchDomain
import VouchJSON

extension SQLiteStore {
    private static let tokenColumns = "id, name, role, tester_id, secret_sha256, created_by, created_at_ms, revoked_at_ms"

    public func createToken(_ token: TokenRecord) throws {
        try database.write { connection in
            if let testerID = token.testerID {
                let status = try connection.query("SELECT status FROM testers WHERE id = ?", [.text(testerID)]).first?.string(0)
                guard status == "active" else {
                    throw ValidationFailure([FieldError(field: "tester", message: status == nil ? "no tester '\(testerID)'" : "tester '\(testerID)' has withdrawn")])
                }
            }
            try connection.query(
                "INSERT INTO tokens (\(SQLiteStore.tokenColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [.text(token.id), .text(token.name), .text(token.role.rawValue), .optional(token.testerID), .blob(token.secretSHA256),
                 .text(token.createdBy), .integer(StoreClock.milliseconds(token.createdAt)), .null])
            try audit(connection, AuditEvent(at: token.createdAt, principal: token.createdBy, action: "token.create", subject: token.id,
                                             after: JSONWriter.string(SQLiteStore.auditDescription(of: token))))
        }
    }

    public func tokens(after id: String?, limit: Int) throws -> [TokenRecord] {
        try database.read { connection in
            try connection.query("SELECT \(SQLiteStore.tokenColumns) FROM tokens WHERE id > ? ORDER BY id LIMIT ?", [.text(id ?? ""), .int(limit)])
                .map(SQLiteStore.token(from:))
        }
    }

    public func activeTokens() throws -> [TokenRecord] {
        try database.read { connection in
            try connection.query("SELECT \(SQLiteStore.tokenColumns) FROM tokens WHERE revoked_at_ms IS NULL").map(SQLiteStore.token(from:))
        }
    }

    public func revokedTokenHashes() throws -> [[UInt8]] {
        try database.read { connection in
            try connection.query("SELECT secret_sha256 FROM tokens WHERE revoked_at_ms IS NOT NULL").map { $0.blob(0) }
        }
    }

    public func revokeToken(_ id: String, by principal: String, at time: Date) throws -> TokenRecord {
        try database.write { connection in
            guard let before = try connection.query("SELECT \(SQLiteStore.tokenColumns) FROM tokens WHERE id = ?", [.text(id)]).first
                .map(SQLiteStore.token(from:)) else {
                throw StoreError.notFound(kind: "token", id: id)
            }
            guard before.revokedAt == nil else { return before }
            if before.role == .admin,
               try connection.scalar("SELECT COUNT(*) FROM tokens WHERE role = 'admin' AND revoked_at_ms IS NULL") ?? 0 <= 1 {
                // Without an admin token nobody could make tokens again, and vouchd only makes one for an empty database.
                throw StoreConflict("\(id) is the last active admin token; create another admin token before revoking this one")
            }
            try connection.query("UPDATE tokens SET revoked_at_ms = ? WHERE id = ?", [.integer(StoreClock.milliseconds(time)), .text(id)])
            var after = before
            after.revokedAt = time
            try audit(connection, AuditEvent(at: time, principal: principal, action: "token.revoke", subject: id,
                                             before: JSONWriter.string(SQLiteStore.auditDescription(of: before)),
                                             after: JSONWriter.string(SQLiteStore.auditDescription(of: after))))
            return after
        }
    }

    public func tokenCount() throws -> Int {
        try database.read { try $0.scalar("SELECT COUNT(*) FROM tokens") ?? 0 }
    }

    /// What the audit log keeps of a token: never the secret or its hash.
    static func auditDescription(of token: TokenRecord) -> JSONValue {
        var object: JSONObject = ["id": .string(token.id), "name": .string(token.name), "role": .string(token.role.rawValue)]
        if let tester = token.testerID { object["tester"] = .string(tester) }
        object["revoked"] = .bool(token.revokedAt != nil)
        return .object(object)
    }

    static func token(from row: SQLiteRow) throws -> TokenRecord {
        guard let role = Role(rawValue: row.string(2)) else {
            throw SQLiteError(code: 11, message: "token row '\(row.string(0))' has an unknown role", sql: nil)
        }
        return TokenRecord(id: row.string(0), name: row.string(1), role: role, testerID: row.optionalString(3), secretSHA256: row.blob(4),
                           createdBy: row.string(5), createdAt: StoreClock.date(row.int64(6)), revokedAt: row.optionalInt(7).map { StoreClock.date(Int64($0)) })
    }
}
