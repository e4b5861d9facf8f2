import Foundation
import VouchCodec

/// Times in plain output, said the way the web console says them (`Words.time` in VouchConsoleKit): "4 December 2026 at
/// 5:17 UTC" rather than `2026-12-04T05:17:02.819Z`, which a screen reader reads digit by digit with every separator.
/// UTC in both, so a person who reads one and hears the other hears the same time. `--json` keeps the API's RFC 3339.
enum SpokenTime {
    /// The same style as the console's: British English puts the day before the month and needs no comma.
    private static let style = Date.FormatStyle(date: .long, time: .shortened, locale: Locale(identifier: "en_GB"), timeZone: .gmt)
    private static let withoutFractions = Date.ISO8601FormatStyle(timeZone: .gmt)

    static func say(_ date: Date) -> String {
        date.formatted(style) + " UTC"
    }

    /// A server's prose with every RFC 3339 time in it said in words ("was already revoked at 4 December 2026 at 5:17 UTC").
    static func inProse(_ text: String) -> String {
        text.replacing(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/) { say(String($0.output.0)) }
    }

    /// An RFC 3339 time from the API in words; text that is not one (from a newer server, say) is left as it came.
    static func say(_ timestamp: String) -> String {
        guard let date = Timestamp.date(timestamp) ?? (try? withoutFractions.parse(timestamp)) else { return timestamp }
        return say(date)
    }
}
