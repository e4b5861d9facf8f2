import VouchDomain

/// The audit log every mutation writes in its own transaction, and what four-eyes reads from it.
public protocol AuditStore: Sendable {
    func auditEvents(fix key: String?, after id: Int64?, limit: Int) throws -> [AuditEvent]
    /// Who shaped the fix's current revision and so may not decide on it (four-eyes).
    func revisionAuthors(of fix: Fix) throws -> [RevisionAuthor]
}
