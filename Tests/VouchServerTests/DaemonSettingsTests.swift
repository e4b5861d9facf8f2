import Foundation
import Testing
import VouchDomain
@testable import VouchServer
@testable import VouchServerKit
import VouchWebhooks

/// The table of settings is the one place a key, its default and its explanation are written: these tests hold the
/// example file, the documentation and the settings structs to it.
@Suite struct DaemonSettingsTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func everyDefaultPassesItsOwnCheck() {
        for setting in DaemonSettings.all {
            #expect(setting.check.problem(with: setting.defaultValue) == nil, "\(setting.key)'s default '\(setting.defaultValue)'")
            #expect(!setting.help.isEmpty, "\(setting.key) explains itself")
        }
        #expect(Set(DaemonSettings.all.map(\.key)).count == DaemonSettings.all.count, "no key twice")
    }

    /// An explanation that states the allowed range ("from 1 to 65536", "from 1s to 300s") states the check's own.
    @Test func everyRangeAnExplanationStatesIsItsChecks() {
        var stated = 0
        for setting in DaemonSettings.all {
            for phrase in Self.matches(of: "from [0-9a-z.]+ to [0-9a-z.]+", in: setting.help) {
                let bounds = phrase.split(separator: " ").map(String.init)
                let (low, high) = (bounds[1], bounds[3].trimmingCharacters(in: CharacterSet(charactersIn: ".")))
                stated += 1
                switch setting.check {
                case .integer(let range):
                    #expect(Int(low) == range.lowerBound && Int(high) == range.upperBound, "\(setting.key) says '\(phrase)', its check \(range)")
                case .duration(let range), .durationList(let range):
                    #expect(Self.seconds(low) == range.lowerBound && Self.seconds(high) == range.upperBound,
                            "\(setting.key) says '\(phrase)', its check \(range) seconds")
                case .ratio:
                    #expect(phrase == "from 0 to 1", "\(setting.key) says '\(phrase)'")
                case .percentageList:
                    #expect(phrase == "from 1 to 100", "\(setting.key) says '\(phrase)'")
                case .listenAddress, .path, .oneOf, .boolean, .assistiveTechList, .originList, .publicURL, .databaseURL, .text, .smtpURL, .mailAddress, .issuerURL,
                     .optionalPath, .scopeList, .claimName, .roleMapping:
                    Issue.record("\(setting.key) states a range, '\(phrase)', that its check does not have")
                }
            }
        }
        #expect(stated >= 20)
    }

    /// Reading a value as its type stops vouchd when it does not parse; every default must read, or vouchd could not start.
    @Test func everyDefaultReadsAsItsType() {
        let defaults = DaemonConfiguration.defaults
        for setting in DaemonSettings.all {
            switch setting.check {
            case .integer: _ = defaults.integer(setting.key)
            case .duration: _ = defaults.seconds(setting.key)
            case .boolean: _ = defaults.boolean(setting.key)
            case .durationList: _ = defaults.secondsList(setting.key)
            case .percentageList: _ = defaults.integerList(setting.key)
            case .listenAddress, .path, .oneOf, .ratio, .assistiveTechList, .originList, .publicURL, .databaseURL, .text, .smtpURL, .mailAddress, .issuerURL,
                 .optionalPath, .scopeList, .claimName, .roleMapping: break
            }
        }
        _ = defaults.applicationSettings
        _ = defaults.httpConfiguration
        _ = defaults.listen
        _ = defaults.logLevel
    }

    /// The settings structs the in-process tests build take the table's defaults. Those of lower modules (criteria,
    /// rollout, the retry schedule) cannot see the table and keep their own, which their own tests use: held equal here.
    @Test func theSettingsStructsDefaultToTheTable() {
        let defaults = DaemonConfiguration.defaults
        #expect(CriteriaSettings() == defaults.criteriaSettings)
        #expect(RolloutPlan() == defaults.rolloutPlan)
        #expect(DeliverySchedule() == defaults.deliverySettings.schedule)
        #expect(ApplicationSettings().delivery.leaseMilliseconds == defaults.seconds("database.lease") * 1_000)
        let application = ApplicationSettings()
        #expect(application.criteria == defaults.criteriaSettings)
        #expect(application.rollout == defaults.rolloutPlan)
        #expect(application.leaseMilliseconds == defaults.seconds("database.lease") * 1_000)
        #expect(application.eventStreams.maxStreams == defaults.integer("ofrep.max_streams"))
        #expect(application.console.linkValidSeconds == defaults.seconds("console.link_valid_for"))
        #expect(application.console.oidc == defaults.oidcSettings)
        #expect(application.authFailures.maxFailures == defaults.integer("auth.max_failures"))
        #expect(application.cors.origins == defaults.corsOrigins)
    }

    @Test func theCommittedExampleIsWhatTheTableWrites() throws {
        let committed = try Self.text("deploy/vouchd.conf.example")
        #expect(committed == DaemonSettings.exampleConfiguration,
                "deploy/vouchd.conf.example differs from the table: swift run vouchd print-example-config > deploy/vouchd.conf.example")
        #expect(DaemonSettings.exampleConfiguration.split(separator: "\n").allSatisfy { $0.count <= DaemonSettings.exampleWidth || !$0.contains(" ") })
    }

    @Test func printExampleConfigPrintsTheTablesExample() throws {
        let run = try VouchdRun(["print-example-config"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output == DaemonSettings.exampleConfiguration)
        #expect(try VouchdRun(["print-example-config", "--config", "x"]).status == 64)
    }

    /// docs/contracts.md's settings table: every key of the table with its default, and no key the table lacks. A row
    /// may name several keys, with their defaults in the same order (`empty` for an empty one).
    @Test func theContractsSettingsTableMatchesTheTable() throws {
        let section = try #require(Self.section(of: try Self.text("docs/contracts.md"), titled: "## Configuration"))
        var documented: [String: String] = [:]
        for row in Self.tableRows(section) where row.count == 3 {
            let keys = Self.quoted(row[0])
            let defaults = Self.matches(of: #"`([^`]*)`|\bempty\b"#, in: row[1]).map { $0.hasPrefix("`") ? String($0.dropFirst().dropLast()) : "" }
            guard !keys.isEmpty, row[0] != "Key" else { continue }
            #expect(keys.count == defaults.count, "docs/contracts.md names \(keys) with \(defaults.count) defaults")
            for (key, value) in zip(keys, defaults) { documented[key] = value }
        }
        for setting in DaemonSettings.all {
            #expect(documented[setting.key] == setting.defaultValue,
                    "docs/contracts.md gives \(setting.key) the default \(documented[setting.key].map { "'\($0)'" } ?? "nothing"), the table '\(setting.defaultValue)'")
        }
        for key in documented.keys {
            #expect(DaemonSettings.setting(key) != nil, "docs/contracts.md names \(key), which vouchd does not know")
        }
    }

    /// The limits tables name settings in passing ("20 in 60s"): each key they name exists, and the row states its default.
    @Test func theLimitsTablesNameKeysThatExistWithTheirDefaults() throws {
        let readme = try #require(Self.section(of: try Self.text("README.md"), titled: "### Limits"))
        let contracts = try #require(Self.section(of: try Self.text("docs/contracts.md"), titled: "### Limits"))
        var named = 0
        for (document, section, checksDefaults) in [("README.md", readme, true), ("docs/contracts.md", contracts, false)] {
            for row in Self.tableRows(section) where row.count == 3 {
                for key in Self.quoted(row[0]) {
                    named += 1
                    guard let setting = DaemonSettings.setting(key) else {
                        Issue.record("\(document)'s limits name \(key), which vouchd does not know")
                        continue
                    }
                    // contracts.md says 64 KiB for 65536; README states the values as they are written.
                    guard checksDefaults else { continue }
                    let word = "(^|[^0-9A-Za-z])" + NSRegularExpression.escapedPattern(for: setting.defaultValue) + "($|[^0-9A-Za-z])"
                    #expect(row[1].range(of: word, options: .regularExpression) != nil,
                            "\(document)'s limits give \(key) '\(row[1])', the table '\(setting.defaultValue)'")
                }
            }
        }
        #expect(named >= 15)
    }

    /// `90s`, `15m`, `24h`, `7d` in seconds.
    static func seconds(_ text: String) -> Int? {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
        guard let unit = text.last.flatMap({ units[$0] }), let number = Int(text.dropLast()) else { return nil }
        return number * unit
    }

    /// The lines from a heading to the next heading of the same or a higher level.
    static func section(of text: String, titled heading: String) -> [Substring]? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0 == heading }) else { return nil }
        let level = heading.prefix { $0 == "#" }.count
        let end = lines[(start + 1)...].firstIndex { line in
            let hashes = line.prefix { $0 == "#" }.count
            return hashes > 0 && hashes <= level && line.dropFirst(hashes).hasPrefix(" ")
        } ?? lines.endIndex
        return Array(lines[(start + 1)..<end])
    }

    /// The cells of each `| a | b | c |` row, trimmed; the separator row has none worth reading.
    static func tableRows(_ lines: [Substring]) -> [[String]] {
        lines.filter { $0.hasPrefix("|") && !$0.hasPrefix("| ---") }.map { line in
            line.dropFirst().dropLast().split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// The names in backquotes that look like keys: lowercase words joined by dots or underscores.
    static func quoted(_ cell: String) -> [String] {
        matches(of: "`[a-z_]+(\\.[a-z_]+)*`", in: cell).map { String($0.dropFirst().dropLast()) }.filter { $0.contains(".") || $0.contains("_") || $0 == "listen" }
    }

    static func matches(of pattern: String, in text: String) -> [String] {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { Range($0.range, in: text).map { String(text[$0]) } }
    }
}
