import Foundation
import VouchDomain
import VouchJSON

/// Panels of testers (docs/invitations.md, "Panels"). The audit log names a panel's members by pseudonym only, and
/// withdrawal unlinks those as everywhere else.
extension RelationalStore {
    public func createPanel(_ panel: Panel, by requester: Requester) throws {
        try write(by: requester) { connection, _ in
            // Under the write lock, so two makers of one name on two vouchd are told apart; the UNIQUE index holds it too.
            if let other = try connection.query("SELECT id, name FROM panels WHERE name_folded = ?", [.text(Panel.folded(panel.name))]).first {
                throw StoreConflict("panel \(other.string(0)) is already called '\(other.string(1))'; a panel's name must differ from every other's")
            }
            try connection.query("INSERT INTO panels (id, name, name_folded, description, created_by, created_at_ms) VALUES (?, ?, ?, ?, ?, ?)",
                                 [.text(panel.id), .text(panel.name), .text(Panel.folded(panel.name)), .optional(panel.description),
                                  .text(panel.createdBy), .integer(StoreClock.milliseconds(panel.createdAt))])
            try audit(connection, AuditEvent(at: panel.createdAt, by: requester, action: .panelCreate, subject: panel.id,
                                             after: JSONWriter.string(RelationalStore.auditDescription(of: panel))))
        }
    }

    public func panels() throws -> [Panel] {
        try storage.read { connection in
            try connection.query("SELECT id FROM panels ORDER BY name_folded, id").compactMap { try RelationalStore.panel($0.string(0), on: connection) }
        }
    }

    public func panel(_ id: String) throws -> Panel? {
        try storage.read { try RelationalStore.panel(id, on: $0) }
    }

    public func deletePanel(_ id: String, by requester: Requester, at time: Date) throws -> Panel {
        try write(by: requester) { connection, _ in
            let panel = try RelationalStore.existingPanel(id, on: connection)
            try connection.query("DELETE FROM panels WHERE id = ?", [.text(id)])
            try audit(connection, AuditEvent(at: time, by: requester, action: .panelDelete, subject: id,
                                             before: JSONWriter.string(RelationalStore.auditDescription(of: panel))))
            return panel
        }
    }

    public func addPanelMembers(_ testerIDs: [String], to id: String, by requester: Requester, at time: Date) throws -> PanelChange {
        try write(by: requester) { connection, _ in
            _ = try RelationalStore.existingPanel(id, on: connection)
            let errors = try RelationalStore.testerErrors(testerIDs, withdrawn: "cannot join a panel", on: connection)
            if !errors.isEmpty { throw ValidationFailure(errors) }
            let added = try RelationalStore.addPanelMembers(testerIDs, to: id, addedBy: requester.name, at: time, on: connection)
            if !added.isEmpty {
                try audit(connection, AuditEvent(at: time, by: requester, action: .panelMemberAdd, subject: id,
                                                 after: JSONWriter.string(.object(["added": .strings(added)]))))
            }
            return PanelChange(panel: try RelationalStore.existingPanel(id, on: connection), added: added, removed: [])
        }
    }

    public func removePanelMember(_ testerID: String, from id: String, by requester: Requester, at time: Date) throws -> PanelChange {
        try write(by: requester) { connection, _ in
            _ = try RelationalStore.existingPanel(id, on: connection)
            try connection.query("DELETE FROM panel_members WHERE panel_id = ? AND tester_id = ?", [.text(id), .text(testerID)])
            let removed = connection.changes > 0 ? [testerID] : []
            if !removed.isEmpty {
                try audit(connection, AuditEvent(at: time, by: requester, action: .panelMemberRemove, subject: id,
                                                 after: JSONWriter.string(.object(["removed": .strings(removed)]))))
            }
            return PanelChange(panel: try RelationalStore.existingPanel(id, on: connection), added: [], removed: removed)
        }
    }

    /// Adds the testers not in the panel yet, in the order given; returns those added.
    static func addPanelMembers(_ testerIDs: [String], to id: String, addedBy: String, at time: Date, on connection: any SQLConnection) throws -> [String] {
        var added: [String] = []
        for tester in testerIDs {
            try connection.query("INSERT INTO panel_members (panel_id, tester_id, added_by, added_at_ms) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                                 [.text(id), .text(tester), .text(addedBy), .integer(StoreClock.milliseconds(time))])
            if connection.changes > 0 { added.append(tester) }
        }
        return added
    }

    /// The pseudonyms of the panel's members who have not withdrawn, by pseudonym.
    static func activeMembers(of id: String, on connection: any SQLConnection) throws -> [String] {
        try connection.query(
            "SELECT m.tester_id FROM panel_members m JOIN testers t ON t.id = m.tester_id WHERE m.panel_id = ? AND t.status = 'active' ORDER BY m.tester_id",
            [.text(id)]).map { $0.string(0) }
    }

    static func existingPanel(_ id: String, on connection: any SQLConnection) throws -> Panel {
        guard let panel = try panel(id, on: connection) else { throw StoreError.notFound(kind: "panel", id: id) }
        return panel
    }

    static func panel(_ id: String, on connection: any SQLConnection) throws -> Panel? {
        guard let row = try connection.query("SELECT id, name, description, created_by, created_at_ms FROM panels WHERE id = ?", [.text(id)]).first else {
            return nil
        }
        let members = try connection.query("SELECT tester_id, added_by, added_at_ms FROM panel_members WHERE panel_id = ? ORDER BY tester_id", [.text(id)])
            .map { Panel.Member(testerID: $0.string(0), addedBy: $0.string(1), addedAt: StoreClock.date($0.int64(2))) }
        return Panel(id: row.string(0), name: row.string(1), description: row.optionalString(2), createdBy: row.string(3),
                     createdAt: StoreClock.date(row.int64(4)), members: members)
    }

    /// What the audit log keeps of a panel: its name and description, which a maintainer wrote about a group, and how
    /// many are in it, never who.
    static func auditDescription(of panel: Panel) -> JSONValue {
        .object(["id": .string(panel.id), "name": .string(panel.name), "description": .optional(panel.description), "members": .int(panel.members.count)])
    }
}
