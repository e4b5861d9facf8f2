import Foundation
import VouchDomain

/// Joining through an invitation: the drafts of her answers and the consent texts agreed to (docs/invitations.md).
extension RelationalStore {
    static let joinDraftColumns = "id_sha256, invitation_id, csrf, consent_version, consent_language, answers, created_at_ms, expires_at_ms"

    public func createJoinDraft(_ draft: JoinDraft) throws {
        try write(by: .daemon) { connection, _ in
            try connection.query("DELETE FROM join_drafts WHERE expires_at_ms <= ?", [.integer(StoreClock.milliseconds(draft.createdAt))])
            try connection.query("INSERT INTO join_drafts (\(RelationalStore.joinDraftColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                                 [.blob(draft.idSHA256), .text(draft.invitationID), .text(draft.csrf), .text(draft.consentVersion),
                                  .text(draft.consentLanguage), .text(draft.answers), .integer(StoreClock.milliseconds(draft.createdAt)),
                                  .integer(StoreClock.milliseconds(draft.expiresAt))])
        }
    }

    public func joinDraft(idSHA256: [UInt8], at time: Date) throws -> JoinDraft? {
        try storage.read { connection in
            try connection.query("SELECT \(RelationalStore.joinDraftColumns) FROM join_drafts WHERE id_sha256 = ? AND expires_at_ms > ?",
                                 [.blob(idSHA256), .integer(StoreClock.milliseconds(time))]).first.map { row in
                JoinDraft(idSHA256: row.blob(0), invitationID: row.string(1), csrf: row.string(2), consentVersion: row.string(3),
                          consentLanguage: row.string(4), answers: row.string(5), createdAt: StoreClock.date(row.int64(6)),
                          expiresAt: StoreClock.date(row.int64(7)))
            }
        }
    }

    public func saveJoinDraft(idSHA256: [UInt8], answers: String) throws {
        _ = try write(by: .daemon) { connection, _ in
            try connection.query("UPDATE join_drafts SET answers = ? WHERE id_sha256 = ?", [.text(answers), .blob(idSHA256)])
        }
    }

    public func deleteJoinDraft(idSHA256: [UInt8]) throws {
        _ = try write(by: .daemon) { connection, _ in
            try connection.query("DELETE FROM join_drafts WHERE id_sha256 = ?", [.blob(idSHA256)])
        }
    }

    public func deleteExpiredJoinDrafts(at time: Date) throws -> Int {
        try write(by: .daemon) { connection, _ in
            try connection.query("DELETE FROM join_drafts WHERE expires_at_ms <= ?", [.integer(StoreClock.milliseconds(time))])
            return connection.changes
        }
    }

    public func agreedConsentText(version: String, language: String) throws -> AgreedConsentText? {
        try storage.read { connection in
            try connection.query("SELECT version, language, body, body_sha256, first_agreed_at_ms FROM consent_texts WHERE version = ? AND language = ?",
                                 [.text(version), .text(language)]).first.map(RelationalStore.agreedConsentText(from:))
        }
    }

    public func agreedConsentTexts() throws -> [AgreedConsentText] {
        try storage.read { connection in
            try connection.query("SELECT version, language, body, body_sha256, first_agreed_at_ms FROM consent_texts ORDER BY version, language")
                .map(RelationalStore.agreedConsentText(from:))
        }
    }

    /// Keeps the text she agreed to, the first time anyone agrees to it. The same version in the same language with
    /// other words is refused: a version names one text, or nobody could tell what someone agreed to.
    static func record(_ agreed: AgreedConsentText, on connection: any SQLConnection) throws {
        try connection.query(
            "INSERT INTO consent_texts (version, language, body, body_sha256, first_agreed_at_ms) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            [.text(agreed.text.version), .text(agreed.text.language), .text(agreed.text.body), .blob(agreed.sha256),
             .integer(StoreClock.milliseconds(agreed.firstAgreedAt))])
        guard connection.changes == 0 else { return }
        let kept = try connection.query("SELECT body_sha256 FROM consent_texts WHERE version = ? AND language = ?",
                                        [.text(agreed.text.version), .text(agreed.text.language)]).first?.blob(0)
        guard kept == agreed.sha256 else {
            throw StoreConflict("the consent text \(agreed.text.version) in \(agreed.text.language) differs from the one testers already agreed to "
                                + "under that version; the operator must give a changed text a new version")
        }
    }

    static func agreedConsentText(from row: SQLRow) -> AgreedConsentText {
        AgreedConsentText(text: ConsentText(version: row.string(0), language: row.string(1), body: row.string(2)), sha256: row.blob(3),
                          firstAgreedAt: StoreClock.date(row.int64(4)))
    }
}
