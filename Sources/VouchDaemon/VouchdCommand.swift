import Dispatch
import Foundation
import VouchClient
import VouchHTTP
import VouchMail
import VouchServer
import VouchServerKit
import VouchServices
import VouchStore

/// `vouchd`: parses its arguments and runs the daemon or one of its maintenance commands.
public enum VouchdCommand {
    public static let version = "0.1.0"

    static let usage = """
        vouchd: serves accessibility fixes behind per-user flags over OFREP, with their testers, feedback and approvals.

        Usage:
          vouchd [--state-dir DIR] [--listen HOST:PORT] [--config FILE] [--log-level LEVEL]
          vouchd check-config [--state-dir DIR] [--listen HOST:PORT] [--config FILE]
          vouchd backup --state-dir DIR --to FILE
          vouchd restore --state-dir DIR --from FILE
          vouchd print-example-config
          vouchd --help | --version

        Options:
          --state-dir DIR      where the database and admin.token live (state_dir; default \(DaemonConfiguration.defaults["state_dir"]))
          --listen HOST:PORT   address to serve on (listen; default \(DaemonConfiguration.defaults["listen"]); port 0 picks a free port)
          --config FILE        key = value settings; VOUCHD_* variables override the file, flags override both
          --log-level LEVEL    debug, info, warning or error (log.level)

        On first start with an empty database, vouchd writes an admin token to DIR/admin.token (mode 0600).
        SIGTERM or SIGINT stops it gracefully: /readyz answers 503, no new connection is accepted, requests in
        flight finish (for up to http.shutdown_timeout), webhook attempts in flight are recorded, the database closes.

        print-example-config prints every key with its default and what it does, commented out: the file installed
        as /etc/vouch/vouchd.conf.example.

        backup copies the database while vouchd runs. restore needs vouchd stopped; it checks the backup and
        keeps the database it replaces as DIR/vouch.sqlite3.replaced-TIME.

        Exit status: 0 done, 64 wrong command line, 78 a configuration error (file and line named), 1 anything else.
        """

    /// Runs vouchd and returns the process exit code.
    public static func main(arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) -> Int32 {
        var arguments = Array(arguments.dropFirst())
        // Every file vouchd writes (database, backups, the copy a restore keeps) holds testers' health data:
        // readable by its owner only.
        umask(0o077)
        if arguments.contains("--help") || arguments.contains("-h") {
            print(usage)
            return 0
        }
        if arguments.contains("--version") {
            print("vouchd \(version)")
            return 0
        }
        var subcommand = "serve"
        if let first = arguments.first, !first.hasPrefix("-") {
            subcommand = first
            arguments.removeFirst()
        }
        do {
            switch subcommand {
            case "serve":
                let options = try DaemonOptions(arguments: arguments, allowed: ["--state-dir", "--listen", "--config", "--log-level"])
                return try serve(configuration: options.configuration(environment: environment))
            case "check-config":
                let options = try DaemonOptions(arguments: arguments, allowed: ["--state-dir", "--listen", "--config", "--log-level"])
                let configuration = try options.configuration(environment: environment)
                print(configuration.report)
                print(try databaseReport(configuration: configuration))
                print(try mailReport(configuration: configuration))
                for line in try IdentityProviderReport.lines(for: configuration.oidcSettings) { print(line) }
                return 0
            case "print-example-config":
                _ = try DaemonOptions(arguments: arguments, allowed: [])
                print(DaemonSettings.exampleConfiguration, terminator: "")
                return 0
            case "restore":
                let options = try DaemonOptions(arguments: arguments, allowed: ["--state-dir", "--from", "--config"])
                guard let source = options.values["--from"] else { throw UsageError("restore needs --from FILE, a file written by 'vouchd backup'") }
                let configuration = try options.configuration(environment: environment)
                try refuseOnPostgreSQL("restore", configuration: configuration)
                let result = try StateRestore(stateDirectory: configuration.stateDirectory, backupPath: source).run()
                print("Restored: \(result.restoredPath)")
                print("From backup: \(source) (schema version \(result.schemaVersion))")
                print("Replaced database kept as: \(result.replacedCopy ?? "none, the state directory had no database")")
                return 0
            case "backup":
                let options = try DaemonOptions(arguments: arguments, allowed: ["--state-dir", "--to", "--config"])
                guard let destination = options.values["--to"] else { throw UsageError("backup needs --to FILE") }
                let configuration = try options.configuration(environment: environment)
                try refuseOnPostgreSQL("backup", configuration: configuration)
                let version = try backup(configuration: configuration, to: destination)
                print("Backup written: \(destination)")
                print("Backup checked: SQLite integrity ok, schema version \(version)")
                return 0
            default:
                throw UsageError("unknown command '\(subcommand)'; commands: check-config, backup, restore, print-example-config "
                    + "(or none, to serve)")
            }
        } catch let error as ConfigurationError {
            FileHandle.standardError.write(Data("Configuration error: \(error.description)\n".utf8))
            return 78
        } catch let error as UsageError {
            FileHandle.standardError.write(Data("Error: \(error.message)\nUsage: vouchd [--state-dir DIR] [--listen HOST:PORT] [--config FILE]\nSee 'vouchd --help'.\n".utf8))
            return 64
        } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            return 1
        }
    }

    static func databasePath(in stateDirectory: String) -> String {
        (stateDirectory as NSString).appendingPathComponent("vouch.sqlite3")
    }

    static func prepareStateDirectory(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw DaemonError("the state directory \(path) is a file, not a directory") }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw DaemonError("cannot create the state directory \(path): \(error.localizedDescription)")
        }
    }

    static func serve(configuration: DaemonConfiguration) throws -> Int32 {
        let logger = Logger(level: configuration.logLevel)
        let notifier = SystemdNotifier()
        let stateDirectory = configuration.stateDirectory
        try prepareStateDirectory(stateDirectory)
        let lock = try StateDirectoryLock(stateDirectory: stateDirectory)
        notifier.notify("STATUS=opening and migrating the database")
        let store = try openStore(configuration: configuration)
        logger.info("database open", [("database", store.database.location)])
        let application = try VouchApplication(store: store, logger: logger, settings: configuration.applicationSettings)
        if let tokenPath = try AdminBootstrap.run(application: application, stateDirectory: stateDirectory) {
            logger.info("admin token created", [("path", tokenPath)])
        }
        var http = configuration.httpConfiguration
        let descriptors = FileDescriptorLimit.raiseToHardLimit()
        let connectionLimit = FileDescriptorLimit.connectionLimit(configured: http.connectionLimit, descriptors: descriptors)
        if connectionLimit < http.connectionLimit {
            logger.warning("http.max_connections lowered to fit the open file limit; raise LimitNOFILE to keep it",
                           [("http.max_connections", String(http.connectionLimit)), ("connections", String(connectionLimit)),
                            ("open_file_limit", String(descriptors))])
            http.connectionLimit = connectionLimit
        }
        let server = HTTPServer(configuration: http, handler: application.respond(to:), direct: application.respond(to:))
        application.attach(server)
        let signals = SignalWaiter()
        let boundPort = try server.start()
        application.startServices()
        let changed = configuration.nonDefaultSettings
        logger.info(changed.isEmpty ? "settings: all defaults" : "settings that differ from the defaults", changed.map { ($0.key, $0.value) })
        logger.info("listening", [("http.host", http.host), ("http.port", String(boundPort)), ("state_dir", stateDirectory)])
        notifier.notify("READY=1\nSTATUS=serving on \(http.host):\(boundPort)")
        let watchdog = startWatchdog(notifier, probe: HealthProbe(listenHost: http.host, port: boundPort, timeoutSeconds: 5), logger: logger)
        signals.wait()

        application.readiness.markStopping()
        logger.info("stopping")
        notifier.notify("STOPPING=1\nSTATUS=finishing requests in flight")
        watchdog?.cancel()
        server.quiesce()
        let shutdownTimeout = configuration.seconds("http.shutdown_timeout")
        if !server.drain(timeoutSeconds: Double(shutdownTimeout)) {
            logger.warning("requests still in flight at the shutdown timeout were cut off", [("http.shutdown_timeout", "\(shutdownTimeout)s")])
        }
        // Writes already handed to a worker finish and are answered before the server stops, rather than being
        // answered 503 by the stop while a worker still carries them out.
        application.workers.stop()
        server.stop()
        // Attempts in flight finish and are recorded; deliveries still waiting stay pending in SQLite for the next start.
        application.stopServices()
        notifier.notify("STATUS=closing the database")
        withExtendedLifetime((store, lock)) {}
        logger.info("stopped")
        return 0
    }

    /// Feeds systemd's watchdog at half its period, but only after vouchd's own `/healthz` answered through
    /// the listening socket: a server that no longer answers is restarted instead of kept alive by a timer.
    private static func startWatchdog(_ notifier: SystemdNotifier, probe: HealthProbe, logger: Logger) -> (any DispatchSourceTimer)? {
        guard let interval = SystemdNotifier.watchdogInterval() else { return nil }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "vouchd.watchdog"))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler {
            if probe.check() {
                notifier.notify("WATCHDOG=1")
            } else {
                logger.warning("watchdog not fed: /healthz did not answer through the listening socket")
            }
        }
        timer.resume()
        return timer
    }

    /// Copies the live database to `destination`, then checks the copy; returns its schema version.
    /// SQLite in the state directory, or the PostgreSQL database of `database.url`; migrated either way.
    static func openStore(configuration: DaemonConfiguration) throws -> RelationalStore {
        if let url = configuration.databaseURL {
            return try RelationalStore(database: try PostgresDatabase(url: url))
        }
        return try RelationalStore(path: databasePath(in: configuration.stateDirectory), synchronous: configuration.synchronous,
                                   busyTimeoutMilliseconds: configuration.seconds("sqlite.busy_timeout") * 1_000)
    }

    /// `backup` and `restore` copy the SQLite file; a PostgreSQL database is PostgreSQL's own tools' to copy.
    static func refuseOnPostgreSQL(_ command: String, configuration: DaemonConfiguration) throws {
        guard configuration.databaseURL != nil else { return }
        let tool = command == "backup" ? "pg_dump --format=custom --file=vouch.dump" : "pg_restore --clean --if-exists --dbname"
        throw DaemonError("vouchd \(command) copies the SQLite database in the state directory, but database.url puts this vouchd on "
            + "PostgreSQL (\(PostgresDatabase.redacted(configuration.databaseURL ?? ""))). Use PostgreSQL's own tools instead, for example: "
            + "\(tool) 'postgres://…' (README, \"Running several vouchd\").")
    }

    /// What `check-config` says of the database after the settings: where it is, and for PostgreSQL that it answers.
    static func databaseReport(configuration: DaemonConfiguration) throws -> String {
        guard let url = configuration.databaseURL else {
            return "Database: SQLite at \(databasePath(in: configuration.stateDirectory))"
        }
        let database = try PostgresDatabase(url: url)
        let known = Migrator(dialect: .postgres).migrations.last?.version ?? 0
        // A database no vouchd has started on yet has no schema_migrations table: version 0.
        let current = (try? Migrator.currentVersion(of: database)) ?? 0
        return "Database: \(database.location): connected; schema version \(current) (this vouchd knows up to \(known)"
            + (current < known ? "; it migrates at start)" : ")")
    }

    /// What `check-config` says of mail: off, or that the relay answered a connection as a mail would make it
    /// (TLS, login), without sending any. A relay that does not answer fails the check, naming the step.
    static func mailReport(configuration: DaemonConfiguration) throws -> String {
        let mail = configuration.mailSettings
        guard mail.isConfigured else { return "Notifications by email: off (notifications.smtp_url is empty)" }
        let server = try SMTPURL(mail.smtpURL)
        let credentials = try mail.credentials().map { SMTPClient.Credentials(username: $0.username, password: $0.password) }
        let client = SMTPClient(server: server, credentials: credentials, timeoutSeconds: mail.timeoutSeconds)
        do {
            try client.verify()
        } catch {
            throw DaemonError("notifications: the relay \(server) did not accept a connection: \(error)")
        }
        let security = switch server.security {
        case .none: "plain text on loopback"
        case .implicitTLS: "TLS"
        case .startTLS: "STARTTLS"
        }
        return "Notifications by email: relay \(server) answered (\(security)\(credentials == nil ? "" : ", logged in")); sender \(mail.from)"
    }

    static func backup(configuration: DaemonConfiguration, to destination: String) throws -> Int {
        let path = databasePath(in: configuration.stateDirectory)
        guard FileManager.default.fileExists(atPath: path) else { throw DaemonError("no database at \(path)") }
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw DaemonError("\(destination) already exists; choose a new file so no earlier backup is overwritten")
        }
        // No migration here: the database may belong to a running vouchd of another version.
        let database = try SQLiteDatabase(path: path, synchronous: configuration.synchronous,
                                    busyTimeoutMilliseconds: configuration.seconds("sqlite.busy_timeout") * 1_000)
        try database.backup(to: destination)
        return try BackupFile.verify(destination)
    }
}

/// A mistake in how vouchd was called (exit 64).
struct UsageError: Error {
    var message: String

    init(_ message: String) {
        self.message = message
    }
}

/// `--name value` and `--name=value` options of vouchd.
struct DaemonOptions {
    var values: [String: String] = [:]

    init(arguments: [String], allowed: [String]) throws {
        var index = 0
        while index < arguments.count {
            var name = arguments[index]
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard allowed.contains(name) else {
                throw UsageError("unknown option '\(name)'; allowed: \(allowed.joined(separator: ", "))")
            }
            if value == nil {
                index += 1
                guard index < arguments.count else { throw UsageError("\(name) needs a value") }
                value = arguments[index]
            }
            values[name] = value
            index += 1
        }
    }

    func configuration(environment: [String: String]) throws -> DaemonConfiguration {
        var configuration = DaemonConfiguration()
        if let path = values["--config"] {
            guard let contents = FileManager.default.contents(atPath: path) else { throw ConfigurationError("cannot read the config file \(path)") }
            try configuration.apply(fileContents: String(decoding: contents, as: UTF8.self), path: path)
        }
        try configuration.apply(environment: environment)
        let flags = [("--state-dir", "state_dir"), ("--listen", "listen"), ("--log-level", "log.level")]
        for (flag, key) in flags {
            if let value = values[flag] { try configuration.set(key, value, source: "flag \(flag)", location: "option \(flag)") }
        }
        try configuration.checkCombinations()
        return configuration
    }
}
