import Foundation
import VouchDomain
import VouchJSON

extension RelationalStore {
    public func enrollments(of key: String) throws -> [Enrollment] {
        try storage.read { connection in
            guard try RelationalStore.fix(key, on: connection) != nil else { throw StoreError.notFound(kind: "fix", id: key) }
            return try RelationalStore.enrollments(of: key, on: connection)
        }
    }

    public func enroll(_ testerIDs: [String], panels: [String], in key: String, by principal: Requester, at time: Date,
                       notifying: ([String]) throws -> [MailNotification]) throws -> EnrollmentChange {
        try write(by: principal) { connection, changes in
            guard try RelationalStore.fix(key, on: connection) != nil else { throw StoreError.notFound(kind: "fix", id: key) }
            var errors = try RelationalStore.testerErrors(testerIDs, withdrawn: "cannot be enrolled", on: connection)
            // A panel brings its members as they are now, under the write lock: whoever withdrew is never enrolled.
            var members: [String] = []
            for (index, panel) in panels.enumerated() {
                guard try connection.scalar("SELECT 1 FROM panels WHERE id = ?", [.text(panel)]) != nil else {
                    errors.append(FieldError(field: "panels[\(index)]", message: "no panel '\(panel)'"))
                    continue
                }
                members += try RelationalStore.activeMembers(of: panel, on: connection)
            }
            if !errors.isEmpty { throw ValidationFailure(errors) }
            var added: [String] = []
            for id in testerIDs + members {
                try connection.query("INSERT INTO enrollments (fix_key, tester_id, enrolled_by, enrolled_at_ms) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                                     [.text(key), .text(id), .text(principal.name), .integer(StoreClock.milliseconds(time))])
                if connection.changes > 0 { added.append(id) }
            }
            if !added.isEmpty {
                var details: JSONObject = ["enrolled": .strings(added)]
                if !panels.isEmpty { details["panels"] = .strings(panels) }
                try audit(connection, AuditEvent(at: time, by: principal, action: .fixEnroll, fixKey: key, after: JSONWriter.string(.object(details))))
                changes.flagRuleChanged(key)
                try RelationalStore.enqueue(try notifying(added), on: connection, recording: &changes)
            }
            return EnrollmentChange(enrollments: try RelationalStore.enrollments(of: key, on: connection), added: added, removed: [])
        }
    }

    public func unenroll(_ testerIDs: [String], from key: String, by principal: Requester, at time: Date) throws -> EnrollmentChange {
        try write(by: principal) { connection, changes in
            guard try RelationalStore.fix(key, on: connection) != nil else { throw StoreError.notFound(kind: "fix", id: key) }
            var removed: [String] = []
            for id in testerIDs {
                try connection.query("DELETE FROM enrollments WHERE fix_key = ? AND tester_id = ?", [.text(key), .text(id)])
                if connection.changes > 0 { removed.append(id) }
            }
            if !removed.isEmpty {
                try audit(connection, AuditEvent(at: time, by: principal, action: .fixUnenroll, fixKey: key,
                                                 after: JSONWriter.string(.object(["unenrolled": .strings(removed)]))))
                changes.flagRuleChanged(key)
            }
            return EnrollmentChange(enrollments: try RelationalStore.enrollments(of: key, on: connection), added: [], removed: removed)
        }
    }

    /// A `testers[i]` error for each tester who does not exist or has withdrawn; `withdrawn` ends the words of the
    /// latter ("cannot be enrolled").
    static func testerErrors(_ testerIDs: [String], withdrawn: String, on connection: any SQLConnection) throws -> [FieldError] {
        var errors: [FieldError] = []
        for (index, id) in testerIDs.enumerated() {
            guard let status = try connection.query("SELECT status FROM testers WHERE id = ?", [.text(id)]).first?.string(0) else {
                errors.append(FieldError(field: "testers[\(index)]", message: "no tester '\(id)'"))
                continue
            }
            if status != "active" { errors.append(FieldError(field: "testers[\(index)]", message: "tester '\(id)' has withdrawn and \(withdrawn)")) }
        }
        return errors
    }

    static func enrollments(of key: String, on connection: any SQLConnection) throws -> [Enrollment] {
        try connection.query("SELECT tester_id, enrolled_by, enrolled_at_ms FROM enrollments WHERE fix_key = ? ORDER BY tester_id", [.text(key)])
            .map { Enrollment(testerID: $0.string(0), enrolledBy: $0.string(1), enrolledAt: StoreClock.date($0.int64(2))) }
    }
}
