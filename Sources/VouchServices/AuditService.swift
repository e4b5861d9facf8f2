import Foundation
import VouchCodec
import VouchDomain
import VouchStore

/// The audit log, read by those who may read everything: every mutation, oldest first, narrowed by fix, action,
/// principal and time.
public struct AuditService: Sendable {
    let store: any AuditStore

    public init(store: any AuditStore) {
        self.store = store
    }

    /// The events `filter` admits after the event `id`, at most `limit`.
    public func events(matching filter: AuditFilter, after id: Int64?, limit: Int, for principal: Principal) throws -> [AuditEvent] {
        try AccessDenied.unless(principal, may: .readAll)
        return try store.auditEvents(matching: filter, after: id, limit: limit)
    }

    /// A filter from what a person asked for: a nil value narrows nothing. A time is an RFC 3339 time or a day
    /// (`2026-12-04`, in UTC); `until` names the last day included, or the first moment excluded.
    public static func filter(fix: String?, action: String?, principal: String?, since: String?, until: String?) throws -> AuditFilter {
        var errors: [FieldError] = []
        var filter = AuditFilter(fix: fix, principal: principal)
        if let name = action {
            if let known = AuditAction(rawValue: name) { filter.action = known }
            else { errors.append(FieldError(field: "action", message: "'\(name)' is not an audit action; allowed: \(AuditAction.allCases.map(\.rawValue).joined(separator: ", "))")) }
        }
        for (field, text) in [("since", since), ("until", until)] {
            guard let text else { continue }
            guard let time = AuditService.time(text, endOfDay: field == "until") else {
                errors.append(FieldError(field: field, message: "must be a day such as 2026-12-04 or a time such as 2026-12-04T14:03:00Z"))
                continue
            }
            if field == "since" { filter.since = time } else { filter.until = time }
        }
        if let since = filter.since, let until = filter.until, until <= since {
            errors.append(FieldError(field: "until", message: "must be later than since"))
        }
        if !errors.isEmpty { throw ValidationFailure(errors) }
        return filter
    }

    /// The moment `text` names; a day is its first moment, or with `endOfDay` the first moment of the next day.
    static func time(_ text: String, endOfDay: Bool) -> Date? {
        if let exact = Timestamp.date(text) ?? (try? Date.ISO8601FormatStyle(timeZone: .gmt).parse(text)) { return exact }
        guard let day = try? Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day().parse(text) else { return nil }
        return endOfDay ? day.addingTimeInterval(86_400) : day
    }
}
