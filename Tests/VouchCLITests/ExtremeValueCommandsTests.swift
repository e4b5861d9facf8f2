import Foundation
import Testing
import VouchTestSupport

/// Extreme numbers and durations on the command line: a usage error (64) or the server's refusal (65), never a crash.
@Suite struct ExtremeValueCommandsTests {
    static let key = DaemonProcess.fixKey

    @Test func extremeValuesAreRefusedWithAnExitCodeThatSaysWhy() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        try #require(try server.vouch("fix", "create", Self.key, "--title", "T", "--ui-area", "TV channel selector", "--platform", "ios").status == 0)
        let durations = ["153722867280912931m", "2562047788015216h", "106751991167301d", "9223372036854775808s", "366d", "-1s"]
        let numbers = ["99999999999999999999999", "9223372036854775808", "-1", "1e400", "0x7fffffffffffffff"]
        var runs: [([String], VouchRun)] = []
        for duration in durations {
            for arguments in [["fix", "criteria", Self.key, "--min-soak", duration], ["fix", "rollout", Self.key, "--phased", "--interval", duration]] {
                runs.append((arguments, try server.vouch(arguments)))
            }
        }
        for number in numbers {
            for option in ["--min-testers-passed", "--max-blocking", "--approvals-required", "--min-pass-ratio"] {
                let arguments = ["fix", "criteria", Self.key, option, number]
                runs.append((arguments, try server.vouch(arguments)))
            }
            runs.append((["feedback", "list", Self.key, "--revision", number], try server.vouch("feedback", "list", Self.key, "--revision", number)))
        }
        let zeroApprovals = try server.vouch("fix", "criteria", Self.key, "--approvals-required", "0")
        runs.append((["approvals-required 0"], zeroApprovals))
        for (arguments, run) in runs {
            #expect([64, 65].contains(run.status), "vouch \(arguments.joined(separator: " ")): exit \(run.status) \(run.stderr)")
            #expect(run.stderr.hasPrefix("Error: "), "vouch \(arguments.joined(separator: " ")): \(run.stderr)")
        }
        #expect(zeroApprovals.status == 64)
        let soak = try server.vouch("fix", "criteria", Self.key, "--min-soak", "153722867280912931m")
        #expect(soak.status == 65)
        #expect(soak.stderr.contains("time in testing before promotion: is too long: at most a year (365d)"))
    }
}
