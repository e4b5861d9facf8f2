import Foundation
import VouchDomain

/// Who a change may be told of by email, read inside the change's own transaction, so the notifications a service
/// plans from it are queued with exactly the state it committed (docs/notifications.md).
public struct NotificationRecipients {
    let connection: any SQLConnection

    /// A staff principal with an address for mail (given with one of its tokens).
    public struct Staff: Sendable, Equatable {
        public var principal: String
        public var email: String
    }

    /// Active testers enrolled in the fix who gave an address.
    public func enrolledTesters(of key: String) throws -> [Tester] {
        try testers(try connection.query("SELECT tester_id FROM enrollments WHERE fix_key = ? ORDER BY tester_id", [.text(key)]).map { $0.string(0) })
    }

    /// Active testers who gave feedback on any revision of the fix and an address.
    public func testersWithFeedback(on key: String) throws -> [Tester] {
        try testers(try connection.query("SELECT DISTINCT tester_id FROM feedback WHERE fix_key = ? AND tester_id IS NOT NULL ORDER BY tester_id",
                                         [.text(key)]).map { $0.string(0) })
    }

    /// The principals of one of `roles` with a live token that carries an address, one entry each.
    public func staff(withRoles roles: [Role]) throws -> [Staff] {
        guard !roles.isEmpty else { return [] }
        let placeholders = Array(repeating: "?", count: roles.count).joined(separator: ", ")
        let rows = try connection.query(
            """
            SELECT COALESCE(principal, name), MIN(email) FROM tokens
            WHERE revoked_at_ms IS NULL AND email IS NOT NULL AND tester_id IS NULL AND role IN (\(placeholders))
            GROUP BY COALESCE(principal, name) ORDER BY COALESCE(principal, name)
            """, roles.map { .text($0.rawValue) })
        return rows.map { Staff(principal: $0.string(0), email: $0.string(1)) }
    }

    private func testers(_ ids: [String]) throws -> [Tester] {
        try ids.compactMap { try RelationalStore.tester($0, on: connection) }.filter { $0.isActive && $0.email != nil }
    }
}
