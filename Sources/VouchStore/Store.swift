/// Everything `vouchd` keeps: one protocol per aggregate, so a part of the server can ask for only the one it uses,
/// and a test can stand in a fake for it.
///
/// Every mutation writes its audit event in the same transaction and has committed durably when the call returns;
/// by then what it changed has been published to `changes` (a mutation that fails publishes nothing). A database
/// that cannot take the work at the moment (busy, unreachable, its disk full) makes a call throw `StoreUnavailable`.
public protocol Store: ClusterStore, FixStore, TargetStore, TokenStore, TesterStore, EnrollmentStore, FeedbackStore, ApprovalStore,
    WebhookStore, DeliveryStore, AuditStore, ServerKeyStore, TesterLinkStore, ConsoleSessionStore, OperationalCountsStore, InvitationStore,
    ConsentTextStore, JoinDraftStore, PanelStore, NotificationStore {}
