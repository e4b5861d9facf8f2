import Foundation
import VouchCodec
import VouchDomain
import VouchHTTP
import VouchStore
import VouchWebhooks

/// vouchd's settings: built-in defaults, then the config file, then `VOUCHD_*` variables, then flags.
public struct DaemonConfiguration: Sendable {
    /// Every key with its default and the check its value must pass; an unknown key stops the start.
    static let keys: [(key: String, defaultValue: String, check: ConfigValueCheck)] = [
        ("listen", "127.0.0.1:8750", .listenAddress),
        ("state_dir", "/var/lib/vouch", .path),
        ("log.level", "info", .oneOf(["debug", "info", "warning", "error"])),
        ("log.requests", "true", .boolean),
        ("http.max_body_bytes", "65536", .integer(1_024...16_777_216)),
        ("http.max_header_bytes", "16384", .integer(RequestLimits.headerBytesRange)),
        ("http.threads", "0", .integer(0...256)),
        ("http.max_connections", "16384", .integer(1...65_536)),
        ("http.max_connections_per_ip", "128", .integer(1...65_536)),
        ("http.connection_timeout", "30s", .duration(1...3_600)),
        ("http.header_timeout", "10s", .duration(1...3_600)),
        ("http.body_timeout", "10s", .duration(1...3_600)),
        ("http.body_min_rate", "500", .integer(1...1_073_741_824)),
        ("http.shutdown_timeout", "10s", .duration(0...3_600)),
        ("http.worker_threads", "32", .integer(1...1_024)),
        ("ofrep.event_streams", "true", .boolean),
        ("ofrep.public_url", "", .publicURL),
        ("ofrep.stream_credential_ttl", "1h", .duration(60...86_400)),
        ("ofrep.stream_keepalive", "15s", .duration(1...300)),
        ("ofrep.inactivity_delay", "120s", .duration(0...86_400)),
        ("ofrep.max_streams", "12288", .integer(1...65_536)),
        ("ofrep.max_streams_per_token", "8", .integer(1...65_536)),
        ("auth.max_failures", "20", .integer(1...100_000)),
        ("auth.failure_window", "60s", .duration(1...86_400)),
        ("database.url", "", .databaseURL),
        ("database.lease", "30s", .duration(2...3_600)),
        ("sqlite.synchronous", "full", .oneOf(["full", "normal"])),
        ("sqlite.busy_timeout", "5s", .duration(0...3_600)),
        ("criteria.min_testers_passed", "2", .integer(0...1_000)),
        ("criteria.required_assistive_tech", "ios:voiceover,android:talkback,web:nvda", .assistiveTechList),
        ("criteria.max_blocking", "0", .integer(0...1_000)),
        ("criteria.min_pass_ratio", "0.8", .ratio),
        ("criteria.min_soak", "24h", .duration(0...DurationText.maximumSeconds)),
        ("criteria.approvals_required", "1", .integer(1...100)),
        ("approvals.expire_after", "7d", .duration(60...DurationText.maximumSeconds)),
        ("webhooks.retry_schedule", "5s,5m,30m,2h,5h,10h,14h,20h,24h", .durationList(0...7 * 86_400)),
        ("webhooks.timeout", "15s", .duration(1...600)),
        ("webhooks.allow_private_networks", "false", .boolean),
        ("webhooks.dns_timeout", "2s", .duration(1...30)),
        ("rollout.phased_steps", "1,2,5,10,20,50,100", .percentageList),
        ("rollout.phased_interval", "24h", .duration(RolloutPlan.intervalRange)),
        ("ofrep.cors_origins", "*", .originList),
        ("console.enabled", "true", .boolean),
        ("console.public_url", "", .publicURL),
        ("console.session_idle_timeout", "24h", .duration(300...30 * 86_400)),
        ("console.session_lifetime", "7d", .duration(3_600...90 * 86_400)),
        ("console.link_valid_for", "14d", .duration(ConsoleSettings.linkValidRange)),
    ]

    public private(set) var values: [String: String]
    /// Where each value came from (`default`, `file:LINE`, `environment`, `flag`), for `check-config`.
    public private(set) var sources: [String: String]

    public init() {
        values = Dictionary(uniqueKeysWithValues: DaemonConfiguration.keys.map { ($0.key, $0.defaultValue) })
        sources = values.mapValues { _ in "default" }
    }

    /// Reads `key = value` lines; `#` starts a comment.
    public mutating func apply(fileContents: String, path: String) throws {
        for (index, rawLine) in fileContents.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            let where_ = "\(path) line \(index + 1)"
            guard let equals = trimmed.firstIndex(of: "=") else {
                throw ConfigurationError("\(where_): expected 'key = value', got '\(trimmed)'")
            }
            let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            let value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            try set(key, value, source: "file \(path):\(index + 1)", location: where_)
        }
    }

    /// `webhooks.retry_schedule` is overridden by `VOUCHD_WEBHOOKS_RETRY_SCHEDULE`, and so on.
    public mutating func apply(environment: [String: String]) throws {
        for (key, _, _) in DaemonConfiguration.keys {
            let variable = DaemonConfiguration.environmentName(for: key)
            if let value = environment[variable] {
                try set(key, value, source: "environment \(variable)", location: "environment variable \(variable)")
            }
        }
    }

    public mutating func set(_ key: String, _ value: String, source: String, location: String) throws {
        guard let entry = DaemonConfiguration.keys.first(where: { $0.key == key }) else {
            let known = DaemonConfiguration.keys.map(\.key).joined(separator: ", ")
            throw ConfigurationError("\(location): unknown key '\(key)'; known keys: \(known)")
        }
        if let problem = entry.check.problem(with: value) {
            throw ConfigurationError("\(location): \(key) = '\(value)' is not valid: \(problem)")
        }
        values[key] = value
        sources[key] = source
    }

    /// Rules between keys, checked once every source is applied.
    public func checkCombinations() throws {
        let attempt = seconds("webhooks.timeout") + seconds("webhooks.dns_timeout")
        if seconds("database.lease") <= attempt {
            throw ConfigurationError("database.lease = '\(self["database.lease"])' (\(sources["database.lease"] ?? "default")) is not valid: it must be "
                + "longer than webhooks.timeout plus webhooks.dns_timeout (\(attempt)s), so that a webhook delivery's lease outlasts its attempt")
        }
    }

    public static func environmentName(for key: String) -> String {
        "VOUCHD_" + key.uppercased().replacingOccurrences(of: ".", with: "_")
    }

    public subscript(key: String) -> String { values[key] ?? "" }

    public var stateDirectory: String { self["state_dir"] }
    public var maxBodyBytes: Int { Int(self["http.max_body_bytes"]) ?? 65_536 }
    public var synchronous: SQLiteDatabase.Synchronous { self["sqlite.synchronous"] == "normal" ? .normal : .full }
    public var logLevel: Logger.Level { Logger.Level(name: self["log.level"]) ?? .info }

    /// A duration setting in whole seconds; spaces around it are allowed, as `ConfigValueCheck` allows them.
    public func seconds(_ key: String) -> Int { DurationText.seconds(self[key].trimmingCharacters(in: .whitespaces)) ?? 0 }

    public var httpConfiguration: HTTPServer.Configuration {
        let threads = Int(self["http.threads"]) ?? 0
        return HTTPServer.Configuration(
            host: listen.host, port: listen.port, threadCount: threads > 0 ? threads : ProcessInfo.processInfo.activeProcessorCount,
            maxBodyBytes: maxBodyBytes, connectionTimeoutSeconds: seconds("http.connection_timeout"),
            connectionLimit: Int(self["http.max_connections"]) ?? 16_384, connectionLimitPerAddress: Int(self["http.max_connections_per_ip"]) ?? 128,
            deadlines: ConnectionDeadlines(headerMilliseconds: seconds("http.header_timeout") * 1_000, bodyMilliseconds: seconds("http.body_timeout") * 1_000,
                                           bodyMinBytesPerSecond: Int(self["http.body_min_rate"]) ?? 500),
            limits: RequestLimits(maxHeaderBytes: Int(self["http.max_header_bytes"]) ?? 16_384))
    }

    /// Criteria defaults, webhook delivery, rollout and CORS settings for the application.
    public var applicationSettings: ApplicationSettings {
        let criteria = CriteriaSettings(
            minTestersPassed: Int(self["criteria.min_testers_passed"]) ?? 2,
            requiredAssistiveTech: (try? CriteriaSettings.requirements(parsing: self["criteria.required_assistive_tech"], field: "criteria.required_assistive_tech")) ?? [],
            maxBlocking: Int(self["criteria.max_blocking"]) ?? 0, minPassRatio: Double(self["criteria.min_pass_ratio"]) ?? 0.8,
            minSoakSeconds: seconds("criteria.min_soak"), approvalsRequired: Int(self["criteria.approvals_required"]) ?? 1,
            approvalExpirySeconds: seconds("approvals.expire_after"))
        let delays = self["webhooks.retry_schedule"].split(separator: ",").compactMap { DurationText.seconds($0.trimmingCharacters(in: .whitespaces)) }
        let delivery = DeliveryWorker.Settings(schedule: DeliverySchedule(retryDelays: delays), timeoutMilliseconds: seconds("webhooks.timeout") * 1_000,
                                               allowPrivateNetworks: self["webhooks.allow_private_networks"] == "true",
                                               leaseMilliseconds: seconds("database.lease") * 1_000)
        let rollout = RolloutPlan(steps: self["rollout.phased_steps"].split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) },
                                  intervalSeconds: seconds("rollout.phased_interval"))
        let authFailures = AuthFailureLimiter.Settings(maxFailures: Int(self["auth.max_failures"]) ?? 20, windowSeconds: max(1, seconds("auth.failure_window")))
        let origins = (try? CORSPolicy.origins(parsing: self["ofrep.cors_origins"], field: "ofrep.cors_origins")) ?? .any
        let eventStreams = EventStreamSettings(
            enabled: self["ofrep.event_streams"] == "true", publicURL: self["ofrep.public_url"], credentialSeconds: seconds("ofrep.stream_credential_ttl"),
            keepAliveSeconds: seconds("ofrep.stream_keepalive"), inactivityDelaySeconds: seconds("ofrep.inactivity_delay"),
            maxStreams: Int(self["ofrep.max_streams"]) ?? 12_288, maxStreamsPerToken: Int(self["ofrep.max_streams_per_token"]) ?? 8)
        return ApplicationSettings(criteria: criteria, delivery: delivery, rollout: rollout, authFailures: authFailures,
                                   logRequests: self["log.requests"] == "true", cors: CORSPolicy(origins: origins),
                                   dnsTimeoutMilliseconds: seconds("webhooks.dns_timeout") * 1_000, eventStreams: eventStreams,
                                   workerThreads: Int(self["http.worker_threads"]) ?? 32,
                                   console: ConsoleSettings(enabled: self["console.enabled"] == "true", publicURL: self["console.public_url"],
                                                            sessionIdleSeconds: seconds("console.session_idle_timeout"),
                                                            sessionLifetimeSeconds: seconds("console.session_lifetime"),
                                                            linkValidSeconds: seconds("console.link_valid_for")),
                                   leaseMilliseconds: seconds("database.lease") * 1_000)
    }

    /// The listen address split into host and port (`[::1]:8750` keeps its brackets off).
    public var listen: (host: String, port: UInt16) {
        let text = self["listen"]
        guard let colon = text.lastIndex(of: ":") else { return (text, 8750) }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host, UInt16(text[text.index(after: colon)...]) ?? 8750)
    }

    /// Keys whose values are secrets, shown as `[redacted]` by `check-config`. None yet: tokens and webhook secrets
    /// live in the database, never in the configuration; a future key that holds one must be listed here.
    static let secretKeys: Set<String> = []

    /// A value as logs and `check-config` show it: secrets redacted, and the database URL without its password.
    static func shown(_ key: String, _ value: String) -> String {
        if secretKeys.contains(key) { return "[redacted]" }
        return key == "database.url" ? PostgresDatabase.redacted(value) : value
    }

    /// The PostgreSQL connection from `database.url`, or nil for SQLite in the state directory.
    public var databaseURL: String? { self["database.url"].isEmpty ? nil : self["database.url"] }

    /// The settings whose value is not the built-in default, in the keys' order, secrets redacted: what the start log
    /// says, so a trial with loopback webhooks allowed or a shortened soak is never mistaken for a production setup.
    public var nonDefaultSettings: [(key: String, value: String)] {
        DaemonConfiguration.keys.compactMap { entry in
            guard let value = values[entry.key], value != entry.defaultValue else { return nil }
            return (entry.key, DaemonConfiguration.shown(entry.key, value))
        }
    }

    /// Every key and its effective value, one per line, for `vouchd check-config`.
    public var report: String {
        DaemonConfiguration.keys.map { entry in
            let value = DaemonConfiguration.shown(entry.key, values[entry.key] ?? "")
            return "\(entry.key) = \(value)    # from \(sources[entry.key] ?? "default")"
        }.joined(separator: "\n")
    }
}
