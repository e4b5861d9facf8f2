import Foundation
import VouchStore

/// `vouch-bench`: the in-process half of `scripts/bench` (the HTTP half drives wrk against vouchd and nginx), and the
/// helpers of its feedback and webhook parts (reference commit loop, data written through the store, timed clients).
///
///     vouch-bench populate  --state-dir DIR [--fixes N] [--targets N]   writes a vouchd database with the workload
///     vouch-bench inprocess --state-dir DIR [--fixes N] [--targets N] [--calls N]
///                                             evaluation cost per call and snapshot rebuild times (DIR from populate)
///     vouch-bench evaluate [--state-dir DIR] [--fixes N] [--targets N] [--calls N]
///                                             the evaluation part alone, for profilers; without DIR on generated rules
///     vouch-bench growth --state-dir DIR [--runs 3]
///                                             part 12: snapshot load and build, one swap, bulk evaluation (DIR from populate)
///     vouch-bench free-port                    prints a free loopback TCP port
///     vouch-bench commit-rate --state-dir DIR [--seconds 5]
///                                             SQLite's durable single-row commit rate (the feedback intake reference)
///     vouch-bench commit-rate --database-url URL [--seconds 5]
///                                             the same on an empty PostgreSQL database
///     vouch-bench convergence --urls A,B,C --admin-token T [--changes 200] [--timeout-seconds 10]
///                                             several vouchd on one database: a change through A until B, C… answer it
///     vouch-bench postgres-store --url URL [--seconds 5] [--writers 16]
///                                             PostgreSQL store: durable writes alone and grouped, one-row reads
///     vouch-bench populate-feedback --state-dir DIR [--records 100000] [--testers 20]
///                                             a fix in testing with that many feedback records (for the summary)
///     vouch-bench populate-releases --state-dir DIR [--fixes 1000] [--records 100000] [--testers 200]
///                                             released fixes with feedback over them (for the conformance report)
///     vouch-bench http-timing --url URL --token T [--calls 50] [--warm-up 5] [--expect TEXT] [--label TEXT] [--via console]
///                                             times a GET with keep-alive; every answer must be 200 and hold TEXT; with
///                                             --via console, a console page in the session the token signs in to
///     vouch-bench json [--runs 200]             parsing a 64 KiB request object and reading every member
///     vouch-bench ofrep-context --url URL --token T [--members 6400] [--calls 50]
///                                             times OFREP bulk evaluation (URL: …/ofrep/v1/evaluate/flags) with a large context
///     vouch-bench enqueue-deliveries --state-dir DIR --url URL [--events 5000]
///                                             a webhook endpoint and that many pending deliveries, vouchd stopped
///     vouch-bench delivery-status --state-dir DIR
///                                             deliveries by status and attempts recorded
///     vouch-bench mail-rate --state-dir DIR [--mails 2000]
///                                             notifications sent per second by the mail worker to a loopback SMTP server
///     vouch-bench promotion-delay --url URL --token T --mode approval|soak [--repetitions 10] [--soak-seconds 2]
///                                             last criterion met → first fix.promoted request at a receiver
///     vouch-bench console --url URL --admin-token T [--sessions 50] [--seconds 10] [--rate 20]
///                                             console pages: latency of a tester's feedback page at 50 sessions, page weights
///     vouch-bench streams --url URL --admin-token T --sdk-token T --fix KEY --pid PID [--streams 10000] [--addresses 100]
///                         [--changes 5] [--hold-seconds 0]
///                                             event streams held open: memory per stream, change-to-stream fan-out times
///
/// Output: plain lines, a label, a colon, then the value; scripts/bench reads them by label.
enum BenchCommand {
    static let usage = """
        Usage:
          vouch-bench populate  --state-dir DIR [--fixes 10000] [--targets 100000]
          vouch-bench inprocess --state-dir DIR [--fixes 10000] [--targets 100000] [--calls 10000000]
          vouch-bench evaluate  [--state-dir DIR] [--fixes 10000] [--targets 100000] [--calls 10000000]   (evaluation only)
          vouch-bench growth --state-dir DIR [--runs 3]
          vouch-bench free-port
          vouch-bench commit-rate --state-dir DIR [--seconds 5] [--synchronous full|normal]
          vouch-bench commit-rate --database-url URL [--seconds 5]
          vouch-bench convergence --urls A,B,C --admin-token T [--changes 200] [--timeout-seconds 10]
          vouch-bench postgres-store --url URL [--seconds 5] [--writers 16]
          vouch-bench populate-feedback --state-dir DIR [--records 100000] [--testers 20]
          vouch-bench populate-releases --state-dir DIR [--fixes 1000] [--records 100000] [--testers 200]
          vouch-bench http-timing --url URL --token TOKEN [--calls 50] [--warm-up 5] [--expect TEXT] [--label TEXT] [--via console]
          vouch-bench enqueue-deliveries --state-dir DIR --url URL [--events 5000]
          vouch-bench delivery-status --state-dir DIR
          vouch-bench mail-rate --state-dir DIR [--mails 2000]
          vouch-bench promotion-delay --url URL --token TOKEN --mode approval|soak [--repetitions 10] [--soak-seconds 2]
          vouch-bench console --url URL --admin-token T [--sessions 50] [--seconds 10] [--rate 20]
          vouch-bench streams --url URL --admin-token T --sdk-token T --fix KEY --pid PID [--streams 10000] [--addresses 100] [--changes 5] [--hold-seconds 0]
        """

    static func main(arguments: [String]) -> Int32 {
        guard let command = arguments.first else {
            FileHandle.standardError.write(Data((usage + "\n").utf8))
            return 64
        }
        do {
            let options = try Options(Array(arguments.dropFirst()))
            switch command {
            case "populate":
                let workload = Workload(fixCount: try options.int("--fixes", 10_000), targetCount: try options.int("--targets", 100_000))
                try StorePopulator.populate(workload, stateDirectory: try options.required("--state-dir"))
            case "inprocess":
                let workload = Workload(fixCount: try options.int("--fixes", 10_000), targetCount: try options.int("--targets", 100_000))
                let stateDirectory = try options.required("--state-dir")
                Calibration.run()
                EvaluationBench.run(workload, calls: try options.int("--calls", 10_000_000), loaded: try StorePopulator.load(stateDirectory))
                try RebuildBench.run(workload, stateDirectory: stateDirectory)
            case "evaluate":
                // The evaluation part alone, for profilers (valgrind, perf).
                let workload = Workload(fixCount: try options.int("--fixes", 10_000), targetCount: try options.int("--targets", 100_000))
                Calibration.run()
                let loaded = try options.values["--state-dir"].map(StorePopulator.load)
                EvaluationBench.run(workload, calls: try options.int("--calls", 10_000_000), loaded: loaded)
            case "growth":
                try GrowthBench.run(stateDirectory: try options.required("--state-dir"), runs: try options.int("--runs", 3))
            case "commit-rate":
                let seconds = try options.double("--seconds", 5)
                if let url = options.values["--database-url"] {
                    guard options.values["--state-dir"] == nil, options.values["--synchronous"] == nil else {
                        throw BenchError("--database-url measures PostgreSQL; --state-dir and --synchronous are for SQLite: give one or the other")
                    }
                    try CommitRateBench.runOnPostgres(url: url, seconds: seconds)
                } else {
                    let synchronous = options.values["--synchronous"] ?? "full"
                    guard let mode = SQLiteDatabase.Synchronous(rawValue: synchronous.uppercased()) else { throw BenchError("--synchronous must be full or normal") }
                    try CommitRateBench.runOnSQLite(stateDirectory: try options.required("--state-dir"), seconds: seconds, synchronous: mode)
                }
            case "convergence":
                try ConvergenceBench.run(.init(
                    urls: try options.required("--urls").split(separator: ",").map(String.init), adminToken: try options.required("--admin-token"),
                    changes: try options.int("--changes", 200), timeoutSeconds: try options.double("--timeout-seconds", 10)))
            case "postgres-store":
                try PostgresStoreBench.run(url: try options.required("--url"), seconds: try options.double("--seconds", 5), writers: try options.int("--writers", 16))
            case "populate-feedback":
                try FeedbackPopulator.populate(stateDirectory: try options.required("--state-dir"), records: try options.int("--records", 100_000),
                                               testers: try options.int("--testers", 20))
            case "populate-releases":
                try ReleasePopulator.populate(stateDirectory: try options.required("--state-dir"), fixes: try options.int("--fixes", 1_000),
                                              records: try options.int("--records", 100_000), testers: try options.int("--testers", 200))
            case "http-timing":
                try HTTPTiming.run(label: options.values["--label"] ?? "GET", url: try options.required("--url"), token: try options.required("--token"),
                                   calls: try options.int("--calls", 50), warmUp: try options.int("--warm-up", 5), expect: options.values["--expect"],
                                   console: try options.values["--via"].map { via in
                                       guard via == "console" else { throw BenchError("--via takes console, got '\(via)'") }
                                       return true
                                   } ?? false)
            case "streams":
                try StreamFanOutBench.run(.init(
                    baseURL: try options.required("--url"), adminToken: try options.required("--admin-token"), sdkToken: try options.required("--sdk-token"),
                    streams: try options.int("--streams", 10_000), addresses: try options.int("--addresses", 100), changes: try options.int("--changes", 5),
                    fix: try options.required("--fix"), daemonPID: Int32(try options.int("--pid", 0)), holdSeconds: try options.double("--hold-seconds", 0)))
            case "console":
                try ConsoleBench.run(.init(baseURL: try options.required("--url"), adminToken: try options.required("--admin-token"),
                                           sessions: try options.int("--sessions", 50), seconds: try options.double("--seconds", 10),
                                           ratePerSession: try options.double("--rate", 20)))
            case "json":
                try JSONObjectBench.run(runs: try options.int("--runs", 200))
            case "ofrep-context":
                let members = try options.int("--members", 6_400)
                try HTTPTiming.run(label: "OFREP bulk with a \(members)-member context", url: try options.required("--url"),
                                   token: try options.required("--token"), calls: try options.int("--calls", 50), warmUp: try options.int("--warm-up", 5),
                                   expect: #""flags""#, body: JSONObjectBench.contextBody(members: members).text)
            case "enqueue-deliveries":
                try OutboxFiller.fill(stateDirectory: try options.required("--state-dir"), url: try options.required("--url"),
                                      events: try options.int("--events", 5_000))
            case "mail-rate":
                try MailRateBench.run(stateDirectory: try options.required("--state-dir"), mails: try options.int("--mails", 2_000))
            case "delivery-status":
                try OutboxFiller.status(stateDirectory: try options.required("--state-dir"))
            case "promotion-delay":
                try PromotionDelayBench.run(url: try options.required("--url"), token: try options.required("--token"), mode: try options.required("--mode"),
                                            repetitions: try options.int("--repetitions", 10), soakSeconds: try options.double("--soak-seconds", 2))
            case "free-port":
                print(try FreePort.find())
            case "-h", "--help":
                print(usage)
            default:
                throw BenchError("unknown command '\(command)'")
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            return 1
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// `--name value` pairs.
struct Options {
    var values: [String: String] = [:]

    init(_ arguments: [String]) throws {
        var index = 0
        while index < arguments.count {
            let name = arguments[index]
            guard name.hasPrefix("--"), index + 1 < arguments.count else { throw BenchError("expected --name value, got '\(name)'") }
            values[name] = arguments[index + 1]
            index += 2
        }
    }

    func required(_ name: String) throws -> String {
        guard let value = values[name] else { throw BenchError("\(name) is required") }
        return value
    }

    func double(_ name: String, _ fallback: Double) throws -> Double {
        guard let text = values[name] else { return fallback }
        guard let value = Double(text), value > 0 else { throw BenchError("\(name) needs a positive number") }
        return value
    }

    func int(_ name: String, _ fallback: Int) throws -> Int {
        guard let text = values[name] else { return fallback }
        guard let value = Int(text.replacingOccurrences(of: "_", with: "")), value > 0 else { throw BenchError("\(name) needs a positive integer") }
        return value
    }
}

/// Formatting and statistics shared by the measurements.
enum Report {
    static func line(_ label: String, _ value: String) {
        print("\(label): \(value)")
        fflush(nil)
    }

    static func fixed(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }

    static func nanoseconds(_ duration: Duration) -> Double { milliseconds(duration) * 1e6 }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    static func list(_ values: [Double], _ digits: Int = 1) -> String { values.map { fixed($0, digits) }.joined(separator: " ") }

    /// The value at `fraction` of sorted values (nearest rank).
    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count) * fraction).rounded(.up)) - 1))]
    }
}
