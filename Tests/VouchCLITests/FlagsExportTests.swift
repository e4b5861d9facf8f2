import Foundation
import Testing
import VouchDomain
import VouchJSON
import VouchStore
import VouchTestSupport

/// `vouch flags export --format flagd` against a live vouchd: the same bytes as `/flagd/v1/flags.json`, printed or
/// written to a file that is replaced in one step and keeps its permissions (docs/flagd.md).
@Suite struct FlagsExportTests {
    @Test func exportsWhatTheEndpointServes() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        _ = try server.startedFixAndTester()
        let printed = try server.vouch("flags", "export", "--format", "flagd")
        #expect(printed.status == 0 && printed.stderr.isEmpty)
        let document = try JSONParser.parse(printed.stdout)
        #expect(document["$schema"]?.stringValue == "https://flagd.dev/schema/v0/flags.json")
        let flag = document["flags"]?[DaemonProcess.fixKey]
        #expect(flag?["defaultVariant"]?.stringValue == "false")
        #expect(flag?["targeting"]?["if"]?.arrayValue?.first?["in"]?.arrayValue?.last == .strings(["tablet-9", "user-1"]))

        let file = server.directory.appendingPathComponent("vouch.flags.json").path
        #expect(try server.vouch("flags", "export", "--format", "flagd", "--output", file) == VouchRun(status: 0, stdout: """
            Flag definitions for flagd written to \(file): 1 fix.

            """, stderr: ""))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == printed.stdout)
        #expect(try permissions(file) == 0o600)

        // flagd may run as another user: a file made readable keeps that through the next export.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        #expect(try server.vouch("fix", "pause", DaemonProcess.fixKey).status == 0)
        #expect(try server.vouch("flags", "export", "--format", "flagd", "--output", file).status == 0)
        #expect(try permissions(file) == 0o644)
        let paused = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
        #expect(paused["flags"]?[DaemonProcess.fixKey]?["metadata"]?["vouchState"]?.stringValue == "paused")
        #expect(paused["flags"]?[DaemonProcess.fixKey]?["targeting"] == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: server.directory.path).filter { $0.hasSuffix(".tmp") }.isEmpty)
    }

    @Test func refusals() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let unknown = try server.vouch("flags", "export", "--format", "unleash")
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("flagd"))
        let missing = try server.vouch("flags", "export")
        #expect(missing.status == 64)
        let tester = try server.addTester()
        let testerToken = try #require(try server.json("token", "create", "--name", "ana-phone", "--role", "tester", "--tester", tester)["token"]?.stringValue)
        let refused = try server.vouch("flags", "export", "--format", "flagd", as: .token(testerToken))
        #expect(refused.status == 77)
        #expect(refused.stdout.isEmpty)
        #expect(try server.vouch("flags", "export", "--format", "flagd", "--output", "/nonexistent-dir/flags.json").status == 1)
    }

    /// A rollout under way before Vouch bucketed as flagd does (written as the migration leaves it, while vouchd is
    /// stopped): the export says in words that flagd does not answer it as Vouch does.
    @Test func namesRolloutsFlagdCannotReproduce() throws {
        let first = try DaemonProcess()
        _ = try first.startedFixAndTester()
        #expect(first.stop() == 0)
        do {
            let store = try RelationalStore(path: first.stateDirectory + "/vouch.sqlite3")
            _ = try store.updateFix(DaemonProcess.fixKey, action: .fixPromote, by: "admin", note: nil) { fix in
                var legacy = fix
                legacy.state = .releasing
                legacy.rolloutPercentage = 20
                legacy.rolloutBucketing = .unleash
                return legacy
            }
        }
        let server = try DaemonProcess(stateDirectory: first.stateDirectory)
        defer { server.stop() }
        let note = "Not the same in flagd: \(DaemonProcess.fixKey). Its phased rollout began before Vouch bucketed as flagd does, "
            + "so flagd turns it on for targeted keys only until the rollout ends.\n"
        let printed = try server.vouch("flags", "export", "--format", "flagd")
        #expect(printed.status == 0)
        #expect(printed.stderr == note)
        #expect(try JSONParser.parse(printed.stdout)["flags"]?[DaemonProcess.fixKey]?["metadata"]?["vouchExact"] == .bool(false))
        let file = first.directory.appendingPathComponent("flags.json").path
        #expect(try server.vouch("flags", "export", "--format", "flagd", "--output", file) == VouchRun(status: 0, stdout: """
            Flag definitions for flagd written to \(file): 1 fix.
            \(note)
            """, stderr: ""))
    }

    private func permissions(_ path: String) throws -> Int? {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
    }
}
