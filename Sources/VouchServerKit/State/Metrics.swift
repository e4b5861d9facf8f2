import Foundation
import Synchronization
import VouchDomain
import VouchHTTP
import VouchStore
import VouchWebhooks
import VouchConcurrency

/// `/metrics` in Prometheus' text format: request counts and durations by route, evaluations by reason,
/// and, read from the database at scrape time, fixes by state, feedback by verdict and deliveries by status.
///
/// Counters on the request path are lock-free; route names are only read when scraped.
public final class Metrics: Sendable {
    /// Seconds; finer than Prometheus' defaults at the low end, where OFREP answers land.
    static let durationBuckets: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    /// Status codes counted by themselves; anything else is counted as `other`.
    static let statusCodes = [200, 201, 202, 204, 304, 400, 401, 403, 404, 405, 406, 409, 410, 413, 415, 422, 429, 431, 500, 503, 507]
    /// Room for every route the API and the console register, with space to grow: a route beyond it would be counted
    /// as unmatched (`MetricsTests` holds the application's routes to it); the last slot counts requests no route
    /// matched (404 and 405). Stripes' pages no thread touches are never resident, so the room costs address space,
    /// not memory.
    static let routeCapacity = 256

    private let routeNames = Mutex<[(method: String, pattern: String)]>([])
    private let requests = AtomicCounters(count: (routeCapacity + 1) * (statusCodes.count + 1))
    private let durations = AtomicCounters(count: (routeCapacity + 1) * (durationBuckets.count + 1))
    private let durationMicroseconds = AtomicCounters(count: routeCapacity + 1)
    private let evaluations = AtomicCounters(count: reasons.count + 1)
    private static let reasons: [EvaluationReason] = [.disabled, .targetingMatch, .default, .split, .static]
    /// The HTTP server's connection counts, once a server is attached (weakly: the server owns the application).
    private let connectionSource = Mutex<(@Sendable () -> (open: Int, cut: HTTPServer.CutConnections, streams: Int, pending: Int)?)?>(nil)
    /// When the process started, for `process_start_time_seconds`.
    let startTime = Date().timeIntervalSince1970
    /// The resolver of webhook hosts, for registrations and deliveries, whose counts are read when scraped.
    private let hostResolver: HostResolver?

    public init(hostResolver: HostResolver? = nil) {
        self.hostResolver = hostResolver
    }

    /// Names the routes, in the order the router reports their indexes.
    package func setRoutes(_ patterns: [String]) {
        let names = patterns.prefix(Metrics.routeCapacity).map { pattern -> (method: String, pattern: String) in
            let parts = pattern.split(separator: " ", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
        routeNames.withLock { $0 = names }
    }

    /// One answered request; `route` is the router's index, or -1 when no route matched.
    package func recordRequest(route: Int, status: Int, seconds: Double) {
        let slot = route >= 0 && route < Metrics.routeCapacity ? route : Metrics.routeCapacity
        let codeIndex = Metrics.statusCodes.firstIndex(of: status) ?? Metrics.statusCodes.count
        requests.add(1, at: slot * (Metrics.statusCodes.count + 1) + codeIndex)
        let bucket = Metrics.durationBuckets.firstIndex { seconds <= $0 } ?? Metrics.durationBuckets.count
        durations.add(1, at: slot * (Metrics.durationBuckets.count + 1) + bucket)
        durationMicroseconds.add(Int(seconds * 1_000_000), at: slot)
    }

    /// Reports `server`'s open connections and the ones its deadlines cut or shed near the cap.
    package func observe(_ server: HTTPServer) {
        connectionSource.withLock { $0 = { [weak server] in server.map { ($0.openConnections, $0.cutConnections, $0.openStreams, $0.pendingReplies) } } }
    }

    package func recordEvaluation(_ reason: EvaluationReason?) {
        let index = reason.flatMap { Metrics.reasons.firstIndex(of: $0) } ?? Metrics.reasons.count
        evaluations.add(1, at: index)
    }

    package func text(snapshotGeneration: UInt64, configurationRevision: Int64 = 0, counts: OperationalCounts?) -> String {
        var lines: [String] = []
        if let connections = connectionSource.withLock({ $0 })?() {
            lines += [
                "# HELP vouch_http_open_connections Connections open now.",
                "# TYPE vouch_http_open_connections gauge",
                "vouch_http_open_connections \(connections.open)",
                "# HELP vouch_http_connections_cut_total Connections the server closed: headers or a body too slow for their deadline, waiting for a request near the connection cap, or an event stream whose client did not read.",
                "# TYPE vouch_http_connections_cut_total counter",
                "vouch_http_connections_cut_total{reason=\"header_deadline\"} \(connections.cut.headerDeadline)",
                "vouch_http_connections_cut_total{reason=\"body_rate\"} \(connections.cut.bodyRate)",
                "vouch_http_connections_cut_total{reason=\"shed\"} \(connections.cut.shed)",
                "vouch_http_connections_cut_total{reason=\"slow_stream\"} \(connections.cut.slowStreams)",
                "# HELP vouch_http_open_streams Event streams open now (each a parked connection).",
                "# TYPE vouch_http_open_streams gauge",
                "vouch_http_open_streams \(connections.streams)",
                "# HELP vouch_http_pending_replies Requests parked while a worker finishes them (a commit, a DNS lookup).",
                "# TYPE vouch_http_pending_replies gauge",
                "vouch_http_pending_replies \(connections.pending)",
            ]
        }
        let names = routeNames.withLock { $0 }
        func label(_ slot: Int) -> String {
            slot < names.count ? "method=\"\(names[slot].method)\",route=\"\(names[slot].pattern)\"" : "method=\"\",route=\"unmatched\""
        }
        let slots = Array(0..<min(names.count, Metrics.routeCapacity)) + [Metrics.routeCapacity]

        lines.append("# HELP vouch_http_requests_total HTTP requests answered, by route and status code.")
        lines.append("# TYPE vouch_http_requests_total counter")
        for slot in slots {
            for codeIndex in 0...Metrics.statusCodes.count {
                let value = requests[slot * (Metrics.statusCodes.count + 1) + codeIndex]
                guard value > 0 else { continue }
                let code = codeIndex < Metrics.statusCodes.count ? String(Metrics.statusCodes[codeIndex]) : "other"
                lines.append("vouch_http_requests_total{\(label(slot)),code=\"\(code)\"} \(value)")
            }
        }

        lines.append("# HELP vouch_http_request_duration_seconds Time from a complete request to its answer, by route.")
        lines.append("# TYPE vouch_http_request_duration_seconds histogram")
        for slot in slots {
            let base = slot * (Metrics.durationBuckets.count + 1)
            let total = (0...Metrics.durationBuckets.count).reduce(0) { $0 + durations[base + $1] }
            guard total > 0 else { continue }
            var cumulative = 0
            for (index, bound) in Metrics.durationBuckets.enumerated() {
                cumulative += durations[base + index]
                lines.append("vouch_http_request_duration_seconds_bucket{\(label(slot)),le=\"\(bound)\"} \(cumulative)")
            }
            lines.append("vouch_http_request_duration_seconds_bucket{\(label(slot)),le=\"+Inf\"} \(total)")
            lines.append("vouch_http_request_duration_seconds_sum{\(label(slot))} \(Double(durationMicroseconds[slot]) / 1_000_000)")
            lines.append("vouch_http_request_duration_seconds_count{\(label(slot))} \(total)")
        }

        lines.append("# HELP vouch_ofrep_evaluations_total Flags evaluated over OFREP, by reason (ERROR for an evaluation error).")
        lines.append("# TYPE vouch_ofrep_evaluations_total counter")
        for (index, reason) in Metrics.reasons.enumerated() {
            lines.append("vouch_ofrep_evaluations_total{reason=\"\(reason.rawValue)\"} \(evaluations[index])")
        }
        lines.append("vouch_ofrep_evaluations_total{reason=\"ERROR\"} \(evaluations[Metrics.reasons.count])")

        if let resolver = hostResolver?.counts {
            lines += [
                "# HELP vouch_webhook_dns_lookups_total Host name lookups of webhook URLs, for registrations and delivery attempts, started on a resolver thread.",
                "# TYPE vouch_webhook_dns_lookups_total counter",
                "vouch_webhook_dns_lookups_total \(resolver.lookups)",
                "# HELP vouch_webhook_dns_timeouts_total Waits for a host name that ended at their deadline: registrations refused (webhooks.dns_timeout), delivery attempts failed and retried (a third of webhooks.timeout).",
                "# TYPE vouch_webhook_dns_timeouts_total counter",
                "vouch_webhook_dns_timeouts_total \(resolver.timeouts)",
                "# HELP vouch_webhook_dns_refused_total Host names not looked up because too many were waiting for a resolver thread: registrations answered 503, delivery attempts failed and retried.",
                "# TYPE vouch_webhook_dns_refused_total counter",
                "vouch_webhook_dns_refused_total \(resolver.refused)",
                "# HELP vouch_webhook_dns_running Host name lookups running now; ones that outlast every deadline hold their resolver thread.",
                "# TYPE vouch_webhook_dns_running gauge",
                "vouch_webhook_dns_running \(resolver.running)",
            ]
        }

        lines.append("# HELP vouch_snapshot_generation Evaluation snapshots swapped in since start.")
        lines.append("# TYPE vouch_snapshot_generation gauge")
        lines.append("vouch_snapshot_generation \(snapshotGeneration)")
        lines.append("# HELP vouch_configuration_revision The configuration revision this node's evaluation snapshot is at.")
        lines.append("# TYPE vouch_configuration_revision gauge")
        lines.append("vouch_configuration_revision \(configurationRevision)")

        if let counts {
            lines.append("# HELP vouch_fixes Fixes in the database, by lifecycle state.")
            lines.append("# TYPE vouch_fixes gauge")
            for state in FixState.allCases {
                lines.append("vouch_fixes{state=\"\(state.rawValue)\"} \(counts.fixesByState[state.rawValue] ?? 0)")
            }
            lines.append("# HELP vouch_feedback_records Feedback records in the database, by verdict.")
            lines.append("# TYPE vouch_feedback_records gauge")
            for verdict in Verdict.allCases {
                lines.append("vouch_feedback_records{verdict=\"\(verdict.rawValue)\"} \(counts.feedbackByVerdict[verdict.rawValue] ?? 0)")
            }
            lines.append("# HELP vouch_webhook_deliveries Webhook deliveries in the database, by outcome (pending ones are the outbox).")
            lines.append("# TYPE vouch_webhook_deliveries gauge")
            for status in WebhookDelivery.Status.allCases {
                lines.append("vouch_webhook_deliveries{outcome=\"\(status.rawValue)\"} \(counts.deliveriesByStatus[status.rawValue] ?? 0)")
            }
            lines.append("# HELP vouch_webhook_outbox_depth Webhook deliveries waiting to be sent or retried.")
            lines.append("# TYPE vouch_webhook_outbox_depth gauge")
            lines.append("vouch_webhook_outbox_depth \(counts.deliveriesByStatus[WebhookDelivery.Status.pending.rawValue] ?? 0)")
        }

        lines.append("# HELP process_resident_memory_bytes Resident memory size in bytes.")
        lines.append("# TYPE process_resident_memory_bytes gauge")
        lines.append("process_resident_memory_bytes \(Metrics.residentMemoryBytes())")
        lines.append("# HELP process_start_time_seconds Start time of the process since the Unix epoch in seconds.")
        lines.append("# TYPE process_start_time_seconds gauge")
        lines.append("process_start_time_seconds \(Int(startTime))")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The second field of /proc/self/statm, in pages.
    static func residentMemoryBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
