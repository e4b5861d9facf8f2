import Foundation
import VouchDomain
import VouchIdentity
import VouchJSON

extension RelationalStore {
    static let tokenColumns = "id, name, role, tester_id, secret_sha256, created_by, created_at_ms, revoked_at_ms, principal, email, event_streams, flag_definitions"

    /// Stores a token. A staff token's principal is registered first: a new name whose confusable skeleton another
    /// principal already has is refused, so no two principals look alike (docs/decisions.md, "Principals, not tokens").
    /// - Parameter principal: the normalised principal of a staff token (nil for a tester token, whose principal is the
    ///   tester's pseudonym) and the request field it came from, for the error.
    public func createToken(_ token: TokenRecord, principal: (name: PrincipalName, field: String)?, by requester: Requester) throws {
        _ = try createToken(token, principal: principal, by: requester, onlyIfFirst: false)
    }

    public func createFirstToken(_ token: TokenRecord, principal: (name: PrincipalName, field: String)?) throws -> Bool {
        try createToken(token, principal: principal, by: .daemon, onlyIfFirst: true)
    }

    /// - Parameter onlyIfFirst: create it only when the database has no token at all, checked in the same transaction.
    /// - Returns: whether it was created.
    private func createToken(_ token: TokenRecord, principal: (name: PrincipalName, field: String)?, by requester: Requester,
                             onlyIfFirst: Bool) throws -> Bool {
        try write(by: requester) { connection, changes in
            if onlyIfFirst, try connection.scalar("SELECT COUNT(*) FROM tokens") != 0 { return false }
            if let testerID = token.testerID {
                let status = try connection.query("SELECT status FROM testers WHERE id = ?", [.text(testerID)]).first?.string(0)
                guard status == "active" else {
                    throw ValidationFailure([FieldError(field: "tester", message: status == nil ? "no tester '\(testerID)'" : "tester '\(testerID)' has withdrawn")])
                }
            }
            if let principal {
                try RelationalStore.register(principal.name, field: principal.field, by: token.createdBy, at: token.createdAt, on: connection)
            }
            try connection.query(
                "INSERT INTO tokens (\(RelationalStore.tokenColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [.text(token.id), .text(token.name), .text(token.role.rawValue), .optional(token.testerID), .blob(token.secretSHA256),
                 .text(token.createdBy), .integer(StoreClock.milliseconds(token.createdAt)), .null, .text(token.principalName),
                 .optional(token.email), .int(token.eventStreams ? 1 : 0),
                 .int(token.flagDefinitions ? 1 : 0)])
            try audit(connection, AuditEvent(at: token.createdAt, principal: token.createdBy, action: .tokenCreate, subject: token.id,
                                             after: JSONWriter.string(RelationalStore.auditDescription(of: token))))
            changes.record(.tokenAdded(token))
            return true
        }
    }

    public func tokens(after id: String?, limit: Int) throws -> [TokenRecord] {
        try storage.read { connection in
            try connection.query("SELECT \(RelationalStore.tokenColumns) FROM tokens WHERE id > ? ORDER BY id LIMIT ?", [.text(id ?? ""), .int(limit)])
                .map(RelationalStore.token(from:))
        }
    }

    public func activeTokens() throws -> [TokenRecord] {
        try storage.read { connection in
            try connection.query("SELECT \(RelationalStore.tokenColumns) FROM tokens WHERE revoked_at_ms IS NULL").map(RelationalStore.token(from:))
        }
    }

    public func revokedTokenHashes() throws -> [[UInt8]] {
        try storage.read { connection in
            try connection.query("SELECT secret_sha256 FROM tokens WHERE revoked_at_ms IS NOT NULL").map { $0.blob(0) }
        }
    }

    public func revokeToken(_ id: String, by principal: Requester, at time: Date) throws -> TokenRecord {
        try write(by: principal) { connection, changes in
            guard let before = try RelationalStore.token(id, on: connection) else { throw StoreError.notFound(kind: "token", id: id) }
            guard before.revokedAt == nil else { return before }
            if before.role == .admin,
               try connection.scalar("SELECT COUNT(*) FROM tokens WHERE role = 'admin' AND revoked_at_ms IS NULL") ?? 0 <= 1 {
                // Without an admin token nobody could make tokens again, and vouchd only makes one for an empty database.
                throw StoreConflict("\(id) is the last active admin token; create another admin token before revoking this one")
            }
            try connection.query("UPDATE tokens SET revoked_at_ms = ? WHERE id = ?", [.integer(StoreClock.milliseconds(time)), .text(id)])
            // Console sessions signed in with the token end with it (docs/console.md, "Sessions").
            try connection.query("DELETE FROM console_sessions WHERE token_id = ?", [.text(id)])
            var after = before
            after.revokedAt = time
            try audit(connection, AuditEvent(at: time, by: principal, action: .tokenRevoke, subject: id,
                                             before: JSONWriter.string(RelationalStore.auditDescription(of: before)),
                                             after: JSONWriter.string(RelationalStore.auditDescription(of: after))))
            changes.record(.tokenRevoked(after))
            return after
        }
    }

    public func tokenCount() throws -> Int {
        try storage.read { try $0.scalar("SELECT COUNT(*) FROM tokens") ?? 0 }
    }

    /// What the audit log keeps of a token: never the secret or its hash.
    static func auditDescription(of token: TokenRecord) -> JSONValue {
        var object: JSONObject = ["id": .string(token.id), "name": .string(token.name), "principal": .string(token.principalName),
                                  "role": .string(token.role.rawValue)]
        if let tester = token.testerID { object["tester"] = .string(tester) }
        if !token.eventStreams { object["event_streams"] = .bool(false) }
        if token.flagDefinitions { object["flag_definitions"] = .bool(true) }
        object["revoked"] = .bool(token.revokedAt != nil)
        return .object(object)
    }

    static func token(_ id: String, on connection: any SQLConnection) throws -> TokenRecord? {
        try connection.query("SELECT \(tokenColumns) FROM tokens WHERE id = ?", [.text(id)]).first.map(token(from:))
    }

    static func token(from row: SQLRow) throws -> TokenRecord {
        guard let role = Role(rawValue: row.string(2)) else {
            throw StoreDataError("token row '\(row.string(0))' has an unknown role")
        }
        return TokenRecord(id: row.string(0), name: row.string(1), principalName: row.optionalString(8) ?? row.string(1), role: role,
                           testerID: row.optionalString(3), secretSHA256: row.blob(4),
                           createdBy: row.string(5), createdAt: StoreClock.date(row.int64(6)), revokedAt: row.optionalInt(7).map { StoreClock.date(Int64($0)) },
                           email: row.optionalString(9), eventStreams: row.int(10) != 0, flagDefinitions: row.int(11) != 0)
    }

    /// Adds `name` to the principals, or finds it there; refuses a name that looks like another principal's.
    static func register(_ name: PrincipalName, field: String, by creator: String, at time: Date, on connection: any SQLConnection) throws {
        let existing = try principal(lookingLike: name, creator: creator, at: StoreClock.milliseconds(time), on: connection)
        guard existing == name.value else {
            throw ValidationFailure([FieldError(field: field, message:
                "'\(name.value)' looks like the existing principal '\(existing)' (the same Unicode confusable skeleton, ignoring "
                + "accents and case); issue the token to '\(existing)' if it is the same person or system, or choose a clearly different name")])
        }
    }

    /// The principal `name` is or looks like; `name` itself, added to the principals, when it looks like none.
    ///
    /// Every principal is compared by its name's skeletons as computed now, not by the stored `skeleton` column: the
    /// rule has grown (combining marks, capitals), and a name stored under the older rule must still be found. There
    /// are few principals (people and systems), and one is added only when a token is made.
    private static func principal(lookingLike name: PrincipalName, creator: String, at milliseconds: Int64,
                                  on connection: any SQLConnection) throws -> String {
        let names = try connection.query("SELECT name FROM principals ORDER BY created_at_ms, name").map { $0.string(0) }
        if names.contains(name.value) { return name.value }
        if let existing = names.first(where: { PrincipalName(stored: $0).looksLike(name) }) { return existing }
        try connection.query("INSERT INTO principals (name, skeleton, created_by, created_at_ms) VALUES (?, ?, ?, ?)",
                             [.text(name.value), .text(name.skeleton), .text(creator), .integer(milliseconds)])
        return name.value
    }

    /// Gives tokens made before principals existed their principal, and rewrites fix authors and approvers to the same
    /// normalised names, so four-eyes holds across the upgrade. Names that look alike become one principal: the safe
    /// direction, since two spellings of one person must never count as two.
    func assignLegacyPrincipals() throws {
        try storage.write { connection in
            let pending = try connection.query("SELECT id, name, tester_id, created_by, created_at_ms FROM tokens WHERE principal IS NULL")
            guard !pending.isEmpty else { return }
            func principal(for text: String, creator: String, at milliseconds: Int64) throws -> String {
                try RelationalStore.principal(lookingLike: PrincipalName.legacy(text), creator: creator, at: milliseconds, on: connection)
            }
            for row in pending {
                let assigned = try row.optionalString(2) ?? principal(for: row.string(1), creator: row.string(3), at: row.int64(4))
                try connection.query("UPDATE tokens SET principal = ? WHERE id = ?", [.text(assigned), .text(row.string(0))])
            }
            for row in try connection.query("SELECT key, author, created_at_ms FROM fixes") {
                let author = try principal(for: row.string(1), creator: "vouchd", at: row.int64(2))
                try connection.query("UPDATE fixes SET author = ? WHERE key = ?", [.text(author), .text(row.string(0))])
            }
            for row in try connection.query("SELECT id, principal, recorded_at_ms, fix_key, revision FROM approvals WHERE replaced_at_ms IS NULL ORDER BY recorded_at_ms") {
                let voter = try principal(for: row.string(1), creator: "vouchd", at: row.int64(2))
                // Two old spellings of one voter: the earlier vote stands, the later is kept as replaced history.
                let taken = try connection.scalar("SELECT COUNT(*) FROM approvals WHERE fix_key = ? AND revision = ? AND principal = ? AND id != ? AND replaced_at_ms IS NULL",
                                                  [.text(row.string(3)), .int(row.int(4)), .text(voter), .text(row.string(0))]) ?? 0
                try connection.query("UPDATE approvals SET principal = ?, replaced_at_ms = ? WHERE id = ?",
                                     [.text(voter), taken > 0 ? .integer(row.int64(2)) : .null, .text(row.string(0))])
            }
        }
    }
}
