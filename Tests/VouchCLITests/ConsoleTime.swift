import Foundation
import VouchConsoleKit

/// How the web console says a time the API gave (`Words.time`): plain output must say the same words, so golden tests
/// build their expectations from the console rather than from the CLI's own helper.
enum ConsoleTime {
    static func say(_ timestamp: String?) -> String {
        guard let timestamp, let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(timestamp) else { return "unparsable \(timestamp ?? "nil")" }
        return Words.time(date)
    }
}

/// The short form plain output gives a generated id where a person only recognises it (docs/contracts.md, "CLI").
func ending(_ id: String) -> String {
    "ending " + id.suffix(7)
}
