import Foundation
import VouchDomain

/// Which audit events to read: each set field narrows the answer, and none set means every event.
public struct AuditFilter: Sendable, Equatable {
    public var fix: String?
    public var action: AuditAction?
    /// The principal as recorded, compared exactly.
    public var principal: String?
    /// From this time on, inclusive.
    public var since: Date?
    /// Before this time, exclusive.
    public var until: Date?

    public init(fix: String? = nil, action: AuditAction? = nil, principal: String? = nil, since: Date? = nil, until: Date? = nil) {
        self.fix = fix
        self.action = action
        self.principal = principal
        self.since = since
        self.until = until
    }
}
