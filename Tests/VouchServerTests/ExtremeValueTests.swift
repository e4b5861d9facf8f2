import Foundation
import Testing
import VouchJSON
@testable import VouchServer
@testable import VouchServerKit

/// Extreme numbers and durations in every numeric field of the API and the configuration: each is refused with a
/// 4xx or exit 78 that names the field, and the process lives on. Found by an attack: `153722867280912931m` once
/// overflowed the duration parser and stopped vouchd.
@Suite(.serialized) struct ExtremeValueTests {
    static let durations = ["153722867280912931m", "2562047788015216h", "106751991167301d", "9223372036854775807s", "9223372036854775808s",
                            "99999999999999999999999999999d", "366d", "8784h", "-1s", "1e9d", "+5m", "0x10s", "5 m", "", "d", "１０s", "5m\u{0}"]
    static let numbers = ["1e308", "-1e308", "1e400", "-1e400", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
                          "18446744073709551616", "1e-400", "-0", "0.0000001", "123456789012345678901234567890"]

    @Test func everyNumericAndDurationFieldOfTheAPISurvivesExtremeValues() throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        let fixes = ["tv-channel-selector-labels", "no-such-fix"]
        var requests: [(String, String, String?)] = []
        for fix in fixes {
            for value in Self.durations {
                let text = JSONWriter.string(.string(value))
                requests.append(("PUT", "/v1/fixes/\(fix)/criteria", #"{"min_soak":\#(text)}"#))
                requests.append(("PUT", "/v1/fixes/\(fix)/rollout", #"{"phased":true,"interval":\#(text)}"#))
            }
            for value in Self.numbers {
                for field in ["min_testers_passed", "max_blocking", "min_pass_ratio", "approvals_required"] {
                    requests.append(("PUT", "/v1/fixes/\(fix)/criteria", #"{"\#(field)":\#(value)}"#))
                }
                requests.append(("PUT", "/v1/fixes/\(fix)/rollout", #"{"phased":true,"steps":[\#(value),100]}"#))
                requests.append(("GET", "/v1/fixes/\(fix)/feedback?revision=\(value)", nil))
                requests.append(("GET", "/v1/fixes?limit=\(value)", nil))
                requests.append(("GET", "/v1/audit?limit=\(value)&fix=\(fix)", nil))
            }
        }
        var answered = 0
        // Values that read as zero or as a small fraction are in range for some fields; the rest never are.
        let harmless = ["-0", "1e-400", "0.0000001", "9223372036854775807"]
        for (method, path, body) in requests {
            let answer = try server.call(method, path, json: body)
            let mayPass = harmless.contains { (body ?? path).contains($0) && !(body ?? path).contains($0 + "8") }
            #expect((400..<500).contains(answer.status) || (mayPass && answer.status == 200),
                    "\(method) \(path) \(body ?? ""): \(answer.status) \(answer.text.prefix(200))")
            if answer.status == 422 { #expect(!answer.errorFields.isEmpty, "\(method) \(path) \(body ?? ""): a 422 must name the field") }
            answered += 1
        }
        #expect(answered == requests.count)
        #expect(try server.call("GET", "/healthz").status == 200)
        // No extreme value was stored: the overrides that remain are the harmless zeros.
        let criteria = try server.call("GET", "/v1/fixes/tv-channel-selector-labels").json["criteria"]?.objectValue
        for (_, value) in criteria?.members ?? [] { #expect(value.doubleValue.map { abs($0) < 1 } ?? true, "stored \(value)") }
        #expect(criteria?["min_soak"] == nil && criteria?["approvals_required"] == nil)
    }

    @Test func aSoakLongerThanAYearIsA422ThatSaysSo() throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        let answer = try server.call("PUT", "/v1/fixes/tv-channel-selector-labels/criteria", json: #"{"min_soak":"153722867280912931m"}"#)
        #expect(answer.status == 422)
        #expect(answer.errorFields == ["min_soak"])
        #expect(answer.json["errors"]?.arrayValue?.first?["message"]?.stringValue?.contains("at most a year (365d)") == true)
        #expect(try server.call("PUT", "/v1/fixes/tv-channel-selector-labels/criteria", json: #"{"min_soak":"365d"}"#).status == 200)
    }

    /// Every number-like configuration key, from the environment and the file, with extreme values: exit 78, never a signal.
    @Test func everyNumericConfigurationKeySurvivesExtremeValues() throws {
        let numeric = DaemonSettings.all.filter {
            switch $0.check {
            case .integer, .ratio, .duration, .durationList, .percentageList, .listenAddress: true
            default: false
            }
        }
        #expect(numeric.count >= 15)
        let values = Self.durations.filter { !$0.isEmpty && !$0.contains("\u{0}") } + Self.numbers.filter { $0 != "-0" && $0 != "0.0000001" && $0 != "1e-400" }
        for entry in numeric {
            for value in values {
                let variable = DaemonConfiguration.environmentName(for: entry.key)
                let run = try VouchdRun(["check-config"], environment: [variable: value])
                #expect(run.status == 78 || run.status == 0, "\(entry.key) = \(value): exit \(run.status) \(run.errors.prefix(200))")
                if run.status == 78 { #expect(run.errors.contains(entry.key), "\(entry.key) = \(value): the error must name the key") }
            }
        }
        let run = try VouchdRun(["check-config"], environment: ["VOUCHD_CRITERIA_MIN_SOAK": "153722867280912931m"])
        #expect(run.status == 78)
        #expect(run.errors.contains("criteria.min_soak"))
        let zero = try VouchdRun(["check-config"], environment: ["VOUCHD_CRITERIA_APPROVALS_REQUIRED": "0"])
        #expect(zero.status == 78, "vouchd must refuse to start without a release manager's approval")
        #expect(zero.errors.contains("criteria.approvals_required"))
    }
}
