import Foundation
import VouchCodec
import VouchDomain
import VouchJSON

/// The console's sessions, testers' personal links and feedback drafts (docs/console.md).
extension RelationalStore {
    static let linkColumns = "id, tester_id, secret_sha256, created_by, created_at_ms, expires_at_ms, revoked_at_ms"
    static let sessionColumns = "id_sha256, token_id, link_id, tester_id, csrf, created_at_ms, last_seen_at_ms, expires_at_ms, opened_by, oidc_principal, oidc_role"

    public func createTesterLink(_ link: TesterLink, by requester: Requester) throws {
        try write(by: requester) { connection, changes in
            let status = try connection.query("SELECT status FROM testers WHERE id = ?", [.text(link.testerID)]).first?.string(0)
            guard let status else { throw StoreError.notFound(kind: "tester", id: link.testerID) }
            guard status == "active" else {
                throw StoreConflict("tester \(link.testerID) has withdrawn; a withdrawn tester gets no link")
            }
            try insert(link, on: connection)
            changes.record(.testerChanged(id: link.testerID))
        }
    }

    /// Stores a link with its audit event.
    func insert(_ link: TesterLink, on connection: any SQLConnection) throws {
        try connection.query("INSERT INTO tester_links (\(RelationalStore.linkColumns)) VALUES (?, ?, ?, ?, ?, ?, NULL)",
                             [.text(link.id), .text(link.testerID), .blob(link.secretSHA256), .text(link.createdBy),
                              .integer(StoreClock.milliseconds(link.createdAt)), .integer(StoreClock.milliseconds(link.expiresAt))])
        try audit(connection, AuditEvent(at: link.createdAt, principal: link.createdBy, action: .testerLinkCreate, subject: link.testerID,
                                         after: JSONWriter.string(RelationalStore.auditDescription(of: link))))
    }

    public func testerLinks(of testerID: String) throws -> [TesterLink] {
        try storage.read { connection in
            try connection.query("SELECT \(RelationalStore.linkColumns) FROM tester_links WHERE tester_id = ? ORDER BY created_at_ms, id",
                                 [.text(testerID)]).map(RelationalStore.link(from:))
        }
    }

    public func testerLink(secretSHA256: [UInt8]) throws -> TesterLink? {
        try storage.read { connection in
            try connection.query("SELECT \(RelationalStore.linkColumns) FROM tester_links WHERE secret_sha256 = ?", [.blob(secretSHA256)])
                .first.map(RelationalStore.link(from:))
        }
    }

    /// Revokes one of the tester's links and ends the sessions it opened.
    public func revokeTesterLink(_ id: String, of testerID: String, by principal: Requester, at time: Date) throws -> TesterLink {
        try write(by: principal) { connection, changes in
            guard let before = try connection.query("SELECT \(RelationalStore.linkColumns) FROM tester_links WHERE id = ? AND tester_id = ?",
                                                    [.text(id), .text(testerID)]).first.map(RelationalStore.link(from:)) else {
                throw StoreError.notFound(kind: "link of tester \(testerID)", id: id)
            }
            if let revokedAt = before.revokedAt {
                throw StoreConflict("link \(id) was already revoked at \(revokedAt.formatted(.iso8601))")
            }
            try connection.query("UPDATE tester_links SET revoked_at_ms = ? WHERE id = ?", [.integer(StoreClock.milliseconds(time)), .text(id)])
            try connection.query("DELETE FROM console_sessions WHERE link_id = ?", [.text(id)])
            var after = before
            after.revokedAt = time
            try audit(connection, AuditEvent(at: time, by: principal, action: .testerLinkRevoke, subject: testerID,
                                             before: JSONWriter.string(RelationalStore.auditDescription(of: before)),
                                             after: JSONWriter.string(RelationalStore.auditDescription(of: after))))
            changes.record(.testerChanged(id: testerID))
            return after
        }
    }

    /// Stores a new session; then, in the same transaction, ends the oldest sessions of its token or link, and of
    /// its tester, beyond `bounds`.
    public func createConsoleSession(_ session: ConsoleSession, by requester: Requester, keepingAtMost bounds: ConsoleSession.Bounds) throws {
        try write(by: requester) { connection, _ in
            var (tokenID, linkID, testerID, openedBy): (String?, String?, String?, String?) = (nil, nil, nil, nil)
            var (oidcPrincipal, oidcRole): (String?, String?) = (nil, nil)
            switch session.holder {
            case .token(let id): tokenID = id
            case .link(let id, let tester, let staff): (linkID, testerID, openedBy) = (id, tester, staff)
            case .identityProvider(let id, let principal, let role): (tokenID, oidcPrincipal, oidcRole) = (id, principal, role.rawValue)
            }
            try connection.query("INSERT INTO console_sessions (\(RelationalStore.sessionColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                 [.blob(session.idSHA256), .optional(tokenID), .optional(linkID), .optional(testerID), .text(session.csrf),
                                  .integer(StoreClock.milliseconds(session.createdAt)), .integer(StoreClock.milliseconds(session.lastSeenAt)),
                                  .integer(StoreClock.milliseconds(session.expiresAt)), .optional(openedBy), .optional(oidcPrincipal),
                                  .optional(oidcRole)])
            // A person signed in through the provider keeps as many sessions as a token does, whatever their ids.
            if let oidcPrincipal {
                try RelationalStore.keepNewestSessions(where: "oidc_principal", is: oidcPrincipal, atMost: bounds.perCredential, on: connection)
            } else if let tokenID {
                try RelationalStore.keepNewestSessions(where: "token_id", is: tokenID, atMost: bounds.perCredential, on: connection)
            }
            if let linkID { try RelationalStore.keepNewestSessions(where: "link_id", is: linkID, atMost: bounds.perCredential, on: connection) }
            if let testerID { try RelationalStore.keepNewestSessions(where: "tester_id", is: testerID, atMost: bounds.perTester, on: connection) }
        }
    }

    /// Deletes the sessions whose `column` is `value`, but the newest `limit` (their drafts go with them).
    private static func keepNewestSessions(where column: String, is value: String, atMost limit: Int, on connection: any SQLConnection) throws {
        try connection.query(
            """
            DELETE FROM console_sessions WHERE \(column) = ? AND id_sha256 NOT IN (
                SELECT id_sha256 FROM console_sessions WHERE \(column) = ? ORDER BY created_at_ms DESC, id_sha256 DESC LIMIT ?)
            """, [.text(value), .text(value), .int(max(1, limit))])
    }

    /// How many sessions a link has now (for tests and the figures of RELIABILITY.md).
    public func consoleSessionCount(link id: String) throws -> Int {
        try storage.read { try $0.scalar("SELECT COUNT(*) FROM console_sessions WHERE link_id = ?", [.text(id)]) ?? 0 }
    }

    /// The session, if it exists; a link session only while its link is neither revoked nor expired and its tester
    /// has not withdrawn (the caller checks a staff session's token against the token directory, and the idle time).
    public func consoleSession(idSHA256: [UInt8], at time: Date) throws -> ConsoleSession? {
        let now = StoreClock.milliseconds(time)
        return try storage.read { connection in
            try connection.query(
                """
                SELECT \(RelationalStore.sessionColumns.split(separator: ",").map { "s." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", "))
                FROM console_sessions s
                LEFT JOIN tester_links l ON l.id = s.link_id
                LEFT JOIN testers t ON t.id = s.tester_id
                WHERE s.id_sha256 = ? AND s.expires_at_ms > ?
                  AND (s.link_id IS NULL OR (l.revoked_at_ms IS NULL AND l.expires_at_ms > ? AND t.status = 'active'))
                """, [.blob(idSHA256), .integer(now), .integer(now)]).first.map(RelationalStore.session(from:))
        }
    }

    /// Records activity, so the idle expiry counts from now.
    public func touchConsoleSession(idSHA256: [UInt8], at time: Date) throws {
        try write(by: .daemon) { connection, _ in
            _ = try connection.query("UPDATE console_sessions SET last_seen_at_ms = ? WHERE id_sha256 = ?",
                                     [.integer(StoreClock.milliseconds(time)), .blob(idSHA256)])
        }
    }

    public func deleteConsoleSession(idSHA256: [UInt8]) throws {
        try write(by: .daemon) { connection, _ in
            _ = try connection.query("DELETE FROM console_sessions WHERE id_sha256 = ?", [.blob(idSHA256)])
        }
    }

    /// Deletes sessions past their absolute end or idle since before `idleBefore`, with their drafts; returns how many.
    @discardableResult
    public func deleteStaleConsoleSessions(at time: Date, idleBefore: Date) throws -> Int {
        try write(by: .daemon) { connection, _ in
            try connection.query("DELETE FROM console_sessions WHERE expires_at_ms <= ? OR last_seen_at_ms < ?",
                                 [.integer(StoreClock.milliseconds(time)), .integer(StoreClock.milliseconds(idleBefore))])
            let sessions = connection.changes
            try connection.query("DELETE FROM oidc_sign_ins WHERE expires_at_ms <= ?", [.integer(StoreClock.milliseconds(time))])
            return sessions + connection.changes
        }
    }

    public func createOIDCSignIn(idSHA256: [UInt8], next: String, expiresAt: Date) throws {
        try write(by: .daemon) { connection, _ in
            _ = try connection.query("INSERT INTO oidc_sign_ins (id_sha256, next, expires_at_ms) VALUES (?, ?, ?)",
                                     [.blob(idSHA256), .text(next), .integer(StoreClock.milliseconds(expiresAt))])
        }
    }

    /// One statement deletes and reads, so two callbacks racing with the same cookie (on one vouchd or two) get it once.
    public func takeOIDCSignIn(idSHA256: [UInt8], at time: Date) throws -> String? {
        try write(by: .daemon) { connection, _ in
            try connection.query("DELETE FROM oidc_sign_ins WHERE id_sha256 = ? RETURNING next, expires_at_ms", [.blob(idSHA256)]).first
                .flatMap { row in row.int64(1) > StoreClock.milliseconds(time) ? row.string(0) : nil }
        }
    }

    /// A tester's answers so far on one fix's feedback pages, as the console wrote them.
    public func consoleDraft(session idSHA256: [UInt8], fix key: String) throws -> String? {
        try storage.read { connection in
            try connection.query("SELECT answers FROM console_drafts WHERE session_sha256 = ? AND fix_key = ?", [.blob(idSHA256), .text(key)])
                .first?.string(0)
        }
    }

    public func saveConsoleDraft(session idSHA256: [UInt8], fix key: String, answers: String, at time: Date) throws {
        try write(by: .daemon) { connection, _ in
            _ = try connection.query(
                """
                INSERT INTO console_drafts (session_sha256, fix_key, answers, updated_at_ms) VALUES (?, ?, ?, ?)
                ON CONFLICT (session_sha256, fix_key) DO UPDATE SET answers = excluded.answers, updated_at_ms = excluded.updated_at_ms
                """, [.blob(idSHA256), .text(key), .text(answers), .integer(StoreClock.milliseconds(time))])
        }
    }

    public func deleteConsoleDraft(session idSHA256: [UInt8], fix key: String) throws {
        try write(by: .daemon) { connection, _ in
            _ = try connection.query("DELETE FROM console_drafts WHERE session_sha256 = ? AND fix_key = ?", [.blob(idSHA256), .text(key)])
        }
    }

    /// What the audit log keeps of a link: never the secret or its hash.
    static func auditDescription(of link: TesterLink) -> JSONValue {
        .object(["id": .string(link.id), "tester": .string(link.testerID), "expires_at": .string(Timestamp.string(link.expiresAt)),
                 "revoked": .bool(link.revokedAt != nil)])
    }

    static func link(from row: SQLRow) -> TesterLink {
        TesterLink(id: row.string(0), testerID: row.string(1), secretSHA256: row.blob(2), createdBy: row.string(3),
                   createdAt: StoreClock.date(row.int64(4)), expiresAt: StoreClock.date(row.int64(5)),
                   revokedAt: row.optionalInt(6).map { StoreClock.date(Int64($0)) })
    }

    static func session(from row: SQLRow) -> ConsoleSession {
        let holder: ConsoleSession.Holder = if let linkID = row.optionalString(2) {
            .link(id: linkID, testerID: row.optionalString(3) ?? "", openedBy: row.optionalString(8))
        } else if let principal = row.optionalString(9) {
            // A role this vouchd does not know (written by a newer one) reaches nothing rather than something.
            .identityProvider(sessionID: row.optionalString(1) ?? "", principal: principal, role: Role(rawValue: row.optionalString(10) ?? "") ?? .sdk)
        } else {
            .token(id: row.optionalString(1) ?? "")
        }
        return ConsoleSession(idSHA256: row.blob(0), holder: holder, csrf: row.string(4), createdAt: StoreClock.date(row.int64(5)),
                              lastSeenAt: StoreClock.date(row.int64(6)), expiresAt: StoreClock.date(row.int64(7)))
    }
}
