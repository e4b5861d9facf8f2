import Foundation
import Testing
import VouchJSON
import VouchTestSupport

/// `vouch eval KEY --key USER --watch` against a real vouchd: the answer, then one plain line per change heard
/// through the OFREP event stream, a clean end at SIGTERM, and exit 69 once the server stays away.
@Suite struct EvalWatchTests {
    static let key = DaemonProcess.fixKey

    /// A started fix and a tester with the key `user-1`, not yet enrolled; the tester's id.
    static func fixAndTester(_ server: DaemonProcess) throws -> String {
        try server.startedFixAndTester(enrolled: false)
    }

    @Test func enrollingTheTesterPrintsOneLineSayingOnAndSIGTERMEndsWithZero() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let tester = try Self.fixAndTester(server)
        let watch = try PipedVouch(["eval", Self.key, "--key", "user-1", "--watch"], environment: server.environment())
        let first = try watch.lines(through: "Watching for changes")
        #expect(first.contains("Value: false"), "\(first)")
        #expect(first.contains { $0.hasPrefix("Reason: default") }, "\(first)")
        try #require(try server.vouch("enroll", Self.key, tester).status == 0)
        let change = try watch.nextLine(within: 10)
        #expect(change.wholeMatch(of: /At \d\d:\d\d:\d\d: on, reason targeting match, revision 1, state testing \(was off, reason default\)/) != nil,
                "\(change)")
        watch.signal(SIGTERM)
        #expect(try watch.waitForExit() == 0, "\(watch.output)\(watch.errorOutput)")
        #expect(watch.output.hasSuffix("Stopped watching.\n"), "\(watch.output)")
        #expect(watch.errorOutput.isEmpty, "\(watch.errorOutput)")
        #expect(!(watch.output + watch.errorOutput).contains("credential"), "the stream's address carries a credential and is never printed")
    }

    @Test func withJSONEveryLineIsTheFlagsOFREPAnswer() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        _ = try Self.fixAndTester(server)
        let watch = try PipedVouch(["eval", Self.key, "--key", "qa-iphone", "--watch", "--json"], environment: server.environment())
        let first = try JSONParser.parse(try watch.nextLine())
        #expect(first["value"] == .bool(false) && first["reason"]?.stringValue == "DEFAULT", "\(first)")
        try watch.expectError("Watching for changes")
        try #require(try server.vouch("fix", "target", Self.key, "--add", "qa-iphone").status == 0)
        let targeted = try JSONParser.parse(try watch.nextLine(within: 10))
        #expect(targeted["key"]?.stringValue == Self.key)
        #expect(targeted["value"] == .bool(true) && targeted["reason"]?.stringValue == "TARGETING_MATCH", "\(targeted)")
        #expect(targeted["metadata"]?["state"]?.stringValue == "testing", "\(targeted)")
        watch.signal(SIGINT)
        #expect(try watch.waitForExit() == 0, "\(watch.output)\(watch.errorOutput)")
        let lines = watch.output.split(separator: "\n")
        #expect(lines.count == 2, "\(watch.output)")
        for line in lines { #expect(throws: Never.self) { try JSONParser.parse(String(line)) } }
    }

    @Test func aServerThatStaysAwayEndsTheWatchWithExit69AfterThreePauses() throws {
        let server = try DaemonProcess()
        var stopped = false
        defer { if !stopped { server.stop() } }
        _ = try Self.fixAndTester(server)
        let watch = try PipedVouch(["eval", Self.key, "--key", "user-1", "--watch"], environment: server.environment())
        _ = try watch.lines(through: "Watching for changes")
        server.stop()
        stopped = true
        #expect(try watch.nextLine() == "The stream closed; reconnecting in 1 s.")
        // 1 + 2 + 5 s of pauses, then the last attempt.
        #expect(try watch.waitForExit(within: 20) == 69, "\(watch.output)\(watch.errorOutput)")
        #expect(watch.output.hasSuffix("Cannot reach the server; reconnecting in 2 s.\nCannot reach the server; reconnecting in 5 s.\n"), "\(watch.output)")
        #expect(watch.errorOutput.hasPrefix("Error: Cannot reach the Vouch server at \(server.url): "), "\(watch.errorOutput)")
    }

    @Test func anUnknownKeyIsAnErrorBeforeAnyWatching() throws {
        let server = try DaemonProcess()
        defer { server.stop() }
        let run = try server.vouch("eval", "no-such-flag", "--key", "user-1", "--watch")
        #expect(run.status == 65, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(run.stderr == "Error: flag not found: no fix has the flag key 'no-such-flag'\n", "\(run)")
    }
}
