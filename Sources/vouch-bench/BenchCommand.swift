import Foundation

/// `vouch-bench`: the in-process half of `scripts/bench` (the HTTP half drives wrk against vouchd and nginx).
///
///     vouch-bench populate  --state-dir DIR [--fixes N] [--targets N]   writes a vouchd database with the workload
///     vouch-bench inprocess --state-dir DIR [--fixes N] [--targets N] [--calls N]
///                                             evaluation cost per call and snapshot rebuild times (DIR from populate)
///     vouch-bench evaluate [--state-dir DIR] [--fixes N] [--targets N] [--calls N]
///                                             the evaluation part alone, for profilers; without DIR on generated rules
///     vouch-bench free-port                    prints a free loopback TCP port
///
/// Output: plain lines, a label, a colon, then the value; scripts/bench reads them by label.
enum BenchCommand {
    static let usage = """
        Usage:
          vouch-bench populate  --state-dir DIR [--fixes 10000] [--targets 100000]
          vouch-bench inprocess --state-dir DIR [--fixes 10000] [--targets 100000] [--calls 10000000]
          vouch-bench evaluate  [--state-dir DIR] [--fixes 10000] [--targets 100000] [--calls 10000000]   (evaluation only)
          vouch-bench free-port
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
}
