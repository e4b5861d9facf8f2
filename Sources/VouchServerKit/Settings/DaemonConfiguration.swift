import Foundation
import VouchCodec
import VouchDomain
import VouchHTTP
import VouchServices
import VouchStore
import VouchWebhooks

/// vouchd's settings: built-in defaults, then the config file, then `VOUCHD_*` variables, then flags. Which keys
/// exist, their defaults and their rules are `DaemonSettings`'; this holds the values of one start.
public struct DaemonConfiguration: Sendable {
    public private(set) var values: [String: String]
    /// Where each value came from (`default`, `file:LINE`, `environment`, `flag`), for `check-config`.
    public private(set) var sources: [String: String]

    /// The built-in defaults, where the settings structs take their own defaults from.
    public static let defaults = DaemonConfiguration()

    public init() {
        values = Dictionary(uniqueKeysWithValues: DaemonSettings.all.map { ($0.key, $0.defaultValue) })
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
        for setting in DaemonSettings.all {
            let variable = DaemonConfiguration.environmentName(for: setting.key)
            if let value = environment[variable] {
                try set(setting.key, value, source: "environment \(variable)", location: "environment variable \(variable)")
            }
        }
    }

    public mutating func set(_ key: String, _ value: String, source: String, location: String) throws {
        guard let setting = DaemonSettings.setting(key) else {
            let known = DaemonSettings.all.map(\.key).joined(separator: ", ")
            throw ConfigurationError("\(location): unknown key '\(key)'; known keys: \(known)")
        }
        if let problem = setting.check.problem(with: value) {
            throw ConfigurationError("\(location): \(key) = '\(value)' is not valid: \(problem)")
        }
        values[key] = value
        sources[key] = source
    }

    /// Rules between keys, checked once every source is applied.
    public func checkCombinations() throws {
        _ = try consentTextLibrary()
        try checkMail()
        try checkOIDCCombinations()
        try checkTokenDirectory()
        let attempt = seconds("webhooks.timeout") + seconds("webhooks.dns_timeout")
        if seconds("database.lease") <= attempt {
            throw ConfigurationError("database.lease = '\(self["database.lease"])' (\(sources["database.lease"] ?? "default")) is not valid: it must be "
                + "longer than webhooks.timeout plus webhooks.dns_timeout (\(attempt)s), so that a webhook delivery's lease outlasts its attempt")
        }
    }

    /// A github-dispatch webhook's token file is read in `webhooks.token_directory` at every attempt: a folder that is
    /// not there would fail every dispatch, so it stops the start instead.
    func checkTokenDirectory() throws {
        let folder = self["webhooks.token_directory"]
        guard !folder.isEmpty else { return }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue,
              FileManager.default.isReadableFile(atPath: folder) else {
            throw ConfigurationError("webhooks.token_directory = '\(folder)' is not a folder vouchd can read: github-dispatch webhooks read their "
                + "token files there; create it (mode 0700, owned by vouchd's user) or leave the setting empty")
        }
    }

    /// Mail needs its sender and an https:// console address for its links (RFC 8058's one-click unsubscribe needs
    /// https).
    func checkMail() throws {
        guard !self["notifications.smtp_url"].isEmpty else { return }
        if self["notifications.from"].isEmpty {
            throw ConfigurationError("notifications.smtp_url is set but notifications.from is not: set the sender's address, such as vouch@example.com")
        }
        if !self["console.public_url"].lowercased().hasPrefix("https://") {
            throw ConfigurationError("notifications.smtp_url is set but console.public_url is not an https:// address: the mails' links, and "
                + "their one-click unsubscribe, point there")
        }
    }

    public static func environmentName(for key: String) -> String {
        "VOUCHD_" + key.uppercased().replacingOccurrences(of: ".", with: "_")
    }

    public subscript(key: String) -> String { values[key] ?? "" }

    public var stateDirectory: String { self["state_dir"] }
    public var maxBodyBytes: Int { integer("http.max_body_bytes") }
    public var synchronous: SQLiteDatabase.Synchronous { self["sqlite.synchronous"] == "normal" ? .normal : .full }
    public var logLevel: Logger.Level { parsed("log.level") { Logger.Level(name: $0) } }

    /// A whole-number setting.
    public func integer(_ key: String) -> Int { parsed(key) { Int($0) } }

    /// A `true` or `false` setting.
    public func boolean(_ key: String) -> Bool { parsed(key) { Bool($0) } }

    /// A duration setting in whole seconds; spaces around it are allowed, as `ConfigValueCheck` allows them.
    public func seconds(_ key: String) -> Int { parsed(key) { DurationText.seconds($0) } }

    /// A list of durations separated by commas, in whole seconds.
    public func secondsList(_ key: String) -> [Int] { parsed(key) { DaemonConfiguration.list($0, DurationText.seconds) } }

    /// A list of whole numbers separated by commas.
    public func integerList(_ key: String) -> [Int] { parsed(key) { DaemonConfiguration.list($0) { Int($0) } } }

    /// The value of `key` as its check reads it. Every value passed that check when it was set, so one that does not
    /// parse is a mistake in vouchd itself (a table default that breaks its own rule, or a key read as the wrong
    /// type): stopping at once says so, where a fallback would quietly run on a second, different default.
    func parsed<Value>(_ key: String, _ parse: (String) -> Value?) -> Value {
        guard DaemonSettings.setting(key) != nil else { preconditionFailure("\(key) is not a key of DaemonSettings") }
        guard let value = parse(self[key].trimmingCharacters(in: .whitespaces)) else {
            preconditionFailure("\(key) = '\(self[key])' cannot be read as its type; check its entry in DaemonSettings")
        }
        return value
    }

    /// Every comma-separated part parsed, or nil when one does not parse.
    private static func list<Element>(_ text: String, _ parse: (String) -> Element?) -> [Element]? {
        var elements: [Element] = []
        for part in text.split(separator: ",") {
            guard let element = parse(part.trimmingCharacters(in: .whitespaces)) else { return nil }
            elements.append(element)
        }
        return elements
    }

    public var httpConfiguration: HTTPServer.Configuration {
        let threads = integer("http.threads")
        return HTTPServer.Configuration(
            host: listen.host, port: listen.port, threadCount: threads > 0 ? threads : ProcessInfo.processInfo.activeProcessorCount,
            maxBodyBytes: maxBodyBytes, connectionTimeoutSeconds: seconds("http.connection_timeout"),
            connectionLimit: integer("http.max_connections"), connectionLimitPerAddress: integer("http.max_connections_per_ip"),
            deadlines: ConnectionDeadlines(headerMilliseconds: seconds("http.header_timeout") * 1_000, bodyMilliseconds: seconds("http.body_timeout") * 1_000,
                                           bodyMinBytesPerSecond: integer("http.body_min_rate")),
            limits: RequestLimits(maxHeaderBytes: integer("http.max_header_bytes")))
    }

    /// The criteria every fix starts from (`criteria.*`, `approvals.expire_after`).
    public var criteriaSettings: CriteriaSettings {
        CriteriaSettings(
            minTestersPassed: integer("criteria.min_testers_passed"),
            requiredAssistiveTech: parsed("criteria.required_assistive_tech") {
                try? CriteriaSettings.requirements(parsing: $0, field: "criteria.required_assistive_tech")
            },
            maxBlocking: integer("criteria.max_blocking"), minPassRatio: parsed("criteria.min_pass_ratio") { Double($0) },
            minSoakSeconds: seconds("criteria.min_soak"), approvalsRequired: integer("criteria.approvals_required"),
            approvalExpirySeconds: seconds("approvals.expire_after"))
    }

    /// Webhook delivery (`webhooks.*`, `database.lease`).
    public var deliverySettings: DeliveryWorker.Settings {
        DeliveryWorker.Settings(schedule: DeliverySchedule(retryDelays: secondsList("webhooks.retry_schedule")),
                                timeoutMilliseconds: seconds("webhooks.timeout") * 1_000,
                                allowPrivateNetworks: boolean("webhooks.allow_private_networks"),
                                leaseMilliseconds: seconds("database.lease") * 1_000,
                                shaping: WebhookRequest.Shaping(tokenDirectory: self["webhooks.token_directory"]))
    }

    /// A phased rollout's default profile (`rollout.*`).
    public var rolloutPlan: RolloutPlan {
        RolloutPlan(steps: integerList("rollout.phased_steps"), intervalSeconds: seconds("rollout.phased_interval"))
    }

    /// The web origins that may read OFREP answers (`ofrep.cors_origins`).
    public var corsOrigins: CORSPolicy.Origins {
        parsed("ofrep.cors_origins") { try? CORSPolicy.origins(parsing: $0, field: "ofrep.cors_origins") }
    }

    /// OFREP event streams (the `ofrep.*` keys but `ofrep.cors_origins`).
    public var eventStreamSettings: EventStreamSettings {
        EventStreamSettings(
            enabled: boolean("ofrep.event_streams"), publicURL: self["ofrep.public_url"], credentialSeconds: seconds("ofrep.stream_credential_ttl"),
            keepAliveSeconds: seconds("ofrep.stream_keepalive"), inactivityDelaySeconds: seconds("ofrep.inactivity_delay"),
            maxStreams: integer("ofrep.max_streams"), maxStreamsPerToken: integer("ofrep.max_streams_per_token"))
    }

    /// The web console (`console.*`).
    /// Who runs the testing programme (`operator.*`).
    public var programmeOperator: ProgrammeOperator {
        ProgrammeOperator(name: self["operator.name"].trimmingCharacters(in: .whitespaces), contact: self["operator.contact"].trimmingCharacters(in: .whitespaces))
    }

    /// The product a report speaks for when its request names none (`report.product_name`).
    public var reportProductName: String { self["report.product_name"].trimmingCharacters(in: .whitespaces) }

    /// The consent texts testers are shown: the operator's (`consent.texts_directory`) or those built in.
    public func consentTextLibrary() throws -> ConsentTextLibrary {
        let directory = self["consent.texts_directory"].trimmingCharacters(in: .whitespaces)
        do {
            if directory.isEmpty { return try ConsentTextLibrary.builtIn(languages: ConsoleSettings.languages) }
            return try ConsentTextLibrary.load(directory: directory, languages: ConsoleSettings.languages)
        } catch {
            throw ConfigurationError("consent.texts_directory = '\(directory)' (\(sources["consent.texts_directory"] ?? "default")) is not valid: \(error)")
        }
    }

    public var consoleSettings: ConsoleSettings {
        ConsoleSettings(enabled: boolean("console.enabled"), publicURL: self["console.public_url"],
                        sessionIdleSeconds: seconds("console.session_idle_timeout"), sessionLifetimeSeconds: seconds("console.session_lifetime"),
                        linkValidSeconds: seconds("console.link_valid_for"), defaultLanguage: self["console.default_language"],
                        oidc: oidcSettings)
    }

    /// The limit on unknown tokens per address (`auth.*`).
    public var authFailureSettings: AuthFailureLimiter.Settings {
        AuthFailureLimiter.Settings(maxFailures: integer("auth.max_failures"), windowSeconds: max(1, seconds("auth.failure_window")))
    }

    /// Notifications by email (`notifications.*`; the retries follow `webhooks.retry_schedule`).
    public var mailSettings: MailSettings {
        MailSettings(smtpURL: self["notifications.smtp_url"], from: self["notifications.from"],
                     credentialsFile: self["notifications.credentials_file"], timeoutSeconds: seconds("notifications.timeout"),
                     retryDelays: secondsList("webhooks.retry_schedule"))
    }

    /// Criteria defaults, webhook delivery, rollout and CORS settings for the application.
    public var applicationSettings: ApplicationSettings {
        ApplicationSettings(criteria: criteriaSettings, delivery: deliverySettings, rollout: rolloutPlan, authFailures: authFailureSettings,
                            logRequests: boolean("log.requests"), cors: CORSPolicy(origins: corsOrigins),
                            dnsTimeoutMilliseconds: seconds("webhooks.dns_timeout") * 1_000, eventStreams: eventStreamSettings,
                            workerThreads: integer("http.worker_threads"), console: consoleSettings,
                            leaseMilliseconds: seconds("database.lease") * 1_000, programmeOperator: programmeOperator,
                            consentTexts: checkedConsentTexts, mail: mailSettings, reportProductName: reportProductName)
    }

    /// The consent texts once `checkCombinations` has read them; a directory that broke since is a stop, not a
    /// quiet fallback to other texts.
    var checkedConsentTexts: ConsentTextLibrary {
        do { return try consentTextLibrary() } catch { fatalError("\(error)") }
    }

    /// The listen address split into host and port (`[::1]:8750` keeps its brackets off); its check made sure there is
    /// a port after the last colon.
    public var listen: (host: String, port: UInt16) {
        parsed("listen") { text in
            guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else { return nil }
            var host = String(text[..<colon])
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            return (host, port)
        }
    }

    /// The PostgreSQL connection from `database.url`, or nil for SQLite in the state directory.
    public var databaseURL: String? { self["database.url"].isEmpty ? nil : self["database.url"] }

    /// The settings whose value is not the built-in default, in the keys' order, secrets redacted: what the start log
    /// says, so a trial with loopback webhooks allowed or a shortened soak is never mistaken for a production setup.
    public var nonDefaultSettings: [(key: String, value: String)] {
        DaemonSettings.all.compactMap { setting in
            guard let value = values[setting.key], value != setting.defaultValue else { return nil }
            return (setting.key, setting.shown(value))
        }
    }

    /// Every key and its effective value, one per line, for `vouchd check-config`.
    public var report: String {
        DaemonSettings.all.map { setting in
            "\(setting.key) = \(setting.shown(values[setting.key] ?? ""))    # from \(sources[setting.key] ?? "default")"
        }.joined(separator: "\n")
    }
}
