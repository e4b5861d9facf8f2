import Testing

/// Failures before any answer from a server: exit 69 when nothing listens, 77 when there is no token.
@Suite struct ConnectionGoldenTests {
    /// Port 1 (tcpmux) has no listener on a test machine, so the connection is refused at once.
    static let deadServer = "http://127.0.0.1:1"

    @Test func serverUnreachable() throws {
        let run = try VouchRun.run(["fix", "list"], environment: ["VOUCH_URL": ConnectionGoldenTests.deadServer, "VOUCH_TOKEN": "vch_unused"])
        #expect(run == VouchRun(status: 69, stdout: "", stderr: """
            Error: Cannot reach the Vouch server at http://127.0.0.1:1: Couldn't connect to server.
            Check --server or VOUCH_URL, and that vouchd is running there.

            """))
    }

    @Test func noTokenIsRefusedBeforeConnecting() throws {
        let run = try VouchRun.run(["--server", ConnectionGoldenTests.deadServer, "fix", "list"])
        #expect(run == VouchRun(status: 77, stdout: "", stderr: """
            Error: No token given. Pass one with --token or set VOUCH_TOKEN.
            The first admin token is in the file admin.token in the server's state directory.

            """))
    }

    @Test func tokenIsNeverPrintedInErrors() throws {
        let run = try VouchRun.run(["fix", "list", "--server", ConnectionGoldenTests.deadServer, "--token", "vch_secret_value"])
        #expect(run.status == 69)
        #expect(!run.stderr.contains("vch_secret_value") && !run.stdout.contains("vch_secret_value"))
    }
}
