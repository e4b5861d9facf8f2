import VouchDomain

/// Decisions on a fix's revision (four-eyes approvals and rejections).
public protocol ApprovalStore: Sendable {
    /// Records a decision; one per principal and revision.
    func recordApproval(_ approval: Approval, by requester: Requester, replacing: String?, emitting events: [WebhookEvent]) throws
    func approvals(of key: String) throws -> [Approval]
}
