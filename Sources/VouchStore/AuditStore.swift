import VouchDomain

/// The audit log every mutation writes in its own transaction, and what four-eyes reads from it.
public protocol AuditStore: Sendable {
    /// The events `filter` admits, oldest first, after the event `id`, at most `limit`.
    func auditEvents(matching filter: AuditFilter, after id: Int64?, limit: Int) throws -> [AuditEvent]
    /// Who shaped the fix's current revision and so may not decide on it (four-eyes).
    func revisionAuthors(of fix: Fix) throws -> [RevisionAuthor]
}

extension AuditStore {
    /// Every event, or one fix's.
    public func auditEvents(fix key: String?, after id: Int64?, limit: Int) throws -> [AuditEvent] {
        try auditEvents(matching: AuditFilter(fix: key), after: id, limit: limit)
    }
}
