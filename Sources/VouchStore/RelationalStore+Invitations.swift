import Foundation
import VouchCodec
import VouchDomain
import VouchJSON

/// Invitations to join as a tester (docs/invitations.md).
extension RelationalStore {
    static let invitationColumns = """
        id, secret_sha256, name_hint, targeting_keys, fix_keys, language, uses_allowed, uses_made, created_by, created_at_ms, \
        expires_at_ms, revoked_at_ms, revoked_by, panel_ids
        """

    public func createInvitation(_ invitation: Invitation, by requester: Requester) throws {
        try write(by: requester) { connection, _ in
            for key in invitation.fixKeys {
                guard try connection.scalar("SELECT 1 FROM fixes WHERE key = ?", [.text(key)]) != nil else { throw StoreError.notFound(kind: "fix", id: key) }
            }
            for id in invitation.panelIDs {
                guard try connection.scalar("SELECT 1 FROM panels WHERE id = ?", [.text(id)]) != nil else { throw StoreError.notFound(kind: "panel", id: id) }
            }
            try connection.query("INSERT INTO invitations (\(RelationalStore.invitationColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, NULL, NULL, ?)",
                                 [.text(invitation.id), .blob(invitation.secretSHA256), .optional(invitation.nameHint),
                                  .text(JSONWriter.string(.strings(invitation.targetingKeys))), .text(JSONWriter.string(.strings(invitation.fixKeys))),
                                  .text(invitation.language), .int(invitation.usesAllowed), .text(invitation.createdBy),
                                  .integer(StoreClock.milliseconds(invitation.createdAt)), .integer(StoreClock.milliseconds(invitation.expiresAt)),
                                  .text(JSONWriter.string(.strings(invitation.panelIDs)))])
            try audit(connection, AuditEvent(at: invitation.createdAt, by: requester, action: .invitationCreate, subject: invitation.id,
                                             after: JSONWriter.string(RelationalStore.auditDescription(of: invitation))))
        }
    }

    public func invitations() throws -> [Invitation] {
        try storage.read { connection in
            try connection.query("SELECT \(RelationalStore.invitationColumns) FROM invitations ORDER BY created_at_ms, id").map(RelationalStore.invitation(from:))
        }
    }

    public func invitation(id: String) throws -> Invitation? {
        try storage.read { connection in
            try connection.query("SELECT \(RelationalStore.invitationColumns) FROM invitations WHERE id = ?", [.text(id)]).first.map(RelationalStore.invitation(from:))
        }
    }

    public func invitation(secretSHA256: [UInt8]) throws -> Invitation? {
        try storage.read { connection in
            try connection.query("SELECT \(RelationalStore.invitationColumns) FROM invitations WHERE secret_sha256 = ?", [.blob(secretSHA256)])
                .first.map(RelationalStore.invitation(from:))
        }
    }

    public func acceptInvitation(secretSHA256: [UInt8], at time: Date, consentText: AgreedConsentText?, makeTester: (Invitation) throws -> Tester,
                                 makeLink: ((Tester) -> TesterLink)?, notifying: (Tester, [String]) throws -> [MailNotification]) throws -> InvitationAcceptance {
        try write(by: .daemon) { connection, changes in
            guard var invitation = try connection.query("SELECT \(RelationalStore.invitationColumns) FROM invitations WHERE secret_sha256 = ?",
                                                        [.blob(secretSHA256)]).first.map(RelationalStore.invitation(from:)),
                  invitation.opens(at: time) else { throw InvitationClosed() }
            // Under the write lock: two people accepting the last use at once are counted one after the other.
            try connection.query("UPDATE invitations SET uses_made = uses_made + 1 WHERE id = ? AND uses_made < uses_allowed", [.text(invitation.id)])
            guard connection.changes == 1 else { throw InvitationClosed() }
            invitation.usesMade += 1
            let tester = try makeTester(invitation)
            // She acts for herself: the audit log names her pseudonym, and how she came.
            let herself = Requester(name: tester.id, credential: nil)
            let note = "joined through invitation \(invitation.id) made by \(invitation.createdBy)"
            try RelationalStore.insert(tester, on: connection)
            try audit(connection, AuditEvent(at: time, by: herself, action: .testerCreate, subject: tester.id, note: note,
                                             after: JSONWriter.string(RelationalStore.auditDescription(of: tester))))
            changes.record(.testerChanged(id: tester.id))
            if let consentText { try RelationalStore.record(consentText, on: connection) }
            var enrolled: [String] = []
            for key in invitation.fixKeys where try connection.scalar("SELECT 1 FROM fixes WHERE key = ?", [.text(key)]) != nil {
                try connection.query("INSERT INTO enrollments (fix_key, tester_id, enrolled_by, enrolled_at_ms) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                                     [.text(key), .text(tester.id), .text(tester.id), .integer(StoreClock.milliseconds(time))])
                try audit(connection, AuditEvent(at: time, by: herself, action: .fixEnroll, fixKey: key, note: note,
                                                 after: JSONWriter.string(.object(["enrolled": .strings([tester.id])]))))
                changes.flagRuleChanged(key)
                enrolled.append(key)
            }
            var joined: [String] = []
            for id in invitation.panelIDs where try connection.scalar("SELECT 1 FROM panels WHERE id = ?", [.text(id)]) != nil {
                _ = try RelationalStore.addPanelMembers([tester.id], to: id, addedBy: tester.id, at: time, on: connection)
                try audit(connection, AuditEvent(at: time, by: herself, action: .panelMemberAdd, subject: id, note: note,
                                                 after: JSONWriter.string(.object(["added": .strings([tester.id])]))))
                joined.append(id)
            }
            let link = makeLink?(tester)
            if let link { try insert(link, on: connection) }
            try RelationalStore.enqueue(try notifying(tester, enrolled), on: connection, recording: &changes)
            return InvitationAcceptance(tester: tester, invitation: invitation, enrolledFixes: enrolled, joinedPanels: joined, link: link)
        }
    }

    public func revokeInvitation(_ id: String, by requester: Requester, at time: Date) throws -> Invitation {
        try write(by: requester) { connection, _ in
            guard let before = try connection.query("SELECT \(RelationalStore.invitationColumns) FROM invitations WHERE id = ?", [.text(id)])
                .first.map(RelationalStore.invitation(from:)) else {
                throw StoreError.notFound(kind: "invitation", id: id)
            }
            if let revokedAt = before.revokedAt {
                throw StoreConflict("invitation \(id) was already revoked at \(revokedAt.formatted(.iso8601))")
            }
            try connection.query("UPDATE invitations SET revoked_at_ms = ?, revoked_by = ? WHERE id = ?",
                                 [.integer(StoreClock.milliseconds(time)), .text(requester.name), .text(id)])
            var after = before
            after.revokedAt = time
            after.revokedBy = requester.name
            try audit(connection, AuditEvent(at: time, by: requester, action: .invitationRevoke, subject: id,
                                             before: JSONWriter.string(RelationalStore.auditDescription(of: before)),
                                             after: JSONWriter.string(RelationalStore.auditDescription(of: after))))
            return after
        }
    }

    /// What the audit log keeps of an invitation: never the name hint or the bound keys, which may point at a person.
    static func auditDescription(of invitation: Invitation) -> JSONValue {
        .object(["id": .string(invitation.id), "fixes": .strings(invitation.fixKeys), "panels": .strings(invitation.panelIDs), "language": .string(invitation.language),
                 "uses_allowed": .int(invitation.usesAllowed), "bound_keys": .int(invitation.targetingKeys.count),
                 "expires_at": .string(Timestamp.string(invitation.expiresAt)), "revoked": .bool(invitation.revokedAt != nil)])
    }

    static func invitation(from row: SQLRow) -> Invitation {
        func strings(_ column: Int) -> [String] {
            ((try? JSONParser.parse(row.string(column)))?.arrayValue ?? []).compactMap(\.stringValue)
        }
        return Invitation(id: row.string(0), secretSHA256: row.blob(1), nameHint: row.optionalString(2), targetingKeys: strings(3), fixKeys: strings(4),
                          panelIDs: strings(13), language: row.string(5), usesAllowed: row.int(6), usesMade: row.int(7), createdBy: row.string(8),
                          createdAt: StoreClock.date(row.int64(9)), expiresAt: StoreClock.date(row.int64(10)),
                          revokedAt: row.optionalInt(11).map { StoreClock.date(Int64($0)) }, revokedBy: row.optionalString(12))
    }
}
