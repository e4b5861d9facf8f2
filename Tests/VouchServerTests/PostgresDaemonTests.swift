import Foundation
import Testing
import VouchStore
import VouchTestSupport
@testable import VouchServer

/// `vouchd` with `database.url`: what it says of the database, what it refuses, and that the URL's password never
/// shows (docs/storage.md).
struct PostgresDaemonTests {
    @Test func checkConfigConnectsAndNeverShowsThePassword() throws {
        try PostgresTestDatabase.run { database in
            // Trust authentication never asks for the password, so a made-up one still connects.
            let url = database.url + "&password=hunter2-not-shown"
            let run = try VouchdRun(["check-config"], environment: ["VOUCHD_DATABASE_URL": url])
            #expect(run.status == 0, "\(run.errors)")
            let lines = run.output.split(separator: "\n").map(String.init)
            // The database's line, then mail's, then the identity provider's, at the end.
            #expect(lines.suffix(2) == ["Notifications by email: off (notifications.smtp_url is empty)",
                                        "Identity provider: none (console.oidc.issuer is empty); staff sign in with a token"])
            let databaseLine = lines.dropLast(2).last
            #expect(databaseLine?.hasPrefix("Database: PostgreSQL database \(database.name) on ") == true, "\(databaseLine ?? "")")
            let known = EmbeddedMigrations.all(for: .postgres).map(\.version).max() ?? 0
            #expect(known >= 4)
            #expect(databaseLine?.contains(": connected; schema version 0 (this vouchd knows up to \(known); it migrates at start)") == true,
                    "\(databaseLine ?? "")")
            #expect(lines.contains { $0.hasPrefix("database.url = ") && $0.contains("# from environment VOUCHD_DATABASE_URL") })
            #expect(!run.output.contains("hunter2") && !run.errors.contains("hunter2"), "the password was shown")
        }
    }

    @Test func checkConfigSaysWhenTheDatabaseDoesNotAnswer() throws {
        let socketDirectory = NSTemporaryDirectory() + "vouch-no-postgres-" + UUID().uuidString.prefix(8)
        let run = try VouchdRun(["check-config"], environment: ["VOUCHD_DATABASE_URL": "postgresql:///vouch?host=\(socketDirectory)&password=s3cret-x"])
        #expect(run.status == 1)
        #expect(run.errors.contains("cannot connect to PostgreSQL"), "\(run.errors)")
        #expect(!run.errors.contains("s3cret-x"), "the password was shown: \(run.errors)")
    }

    @Test(arguments: [["backup", "--to", "copy.sqlite3"], ["restore", "--from", "copy.sqlite3"]])
    func backupAndRestoreSendYouToPostgreSQLsOwnTools(arguments: [String]) throws {
        let directory = NSTemporaryDirectory() + "vouch-pg-backup-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try VouchdRun([arguments[0], "--state-dir", directory, arguments[1], directory + "/" + arguments[2]],
                                environment: ["VOUCHD_DATABASE_URL": "postgres://vouch:pw-not-shown@db.example.com/vouch"])
        #expect(run.status == 1)
        #expect(run.errors.contains("database.url puts this vouchd on PostgreSQL"), "\(run.errors)")
        #expect(run.errors.contains(arguments[0] == "backup" ? "pg_dump" : "pg_restore"), "\(run.errors)")
        #expect(!run.errors.contains("pw-not-shown"), "\(run.errors)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/copy.sqlite3"))
    }

    @Test(arguments: [
        (["VOUCHD_DATABASE_URL": "mysql://db.example.com/vouch"], "database.url = 'mysql://db.example.com/vouch' is not valid"),
        (["VOUCHD_DATABASE_LEASE": "10s"], "database.lease = '10s' (environment VOUCHD_DATABASE_LEASE) is not valid: it must be longer than "
            + "webhooks.timeout plus webhooks.dns_timeout (17s)"),
        (["VOUCHD_DATABASE_LEASE": "1s"], "database.lease = '1s' is not valid"),
    ])
    func badDatabaseSettingsStopTheStart(environment: [String: String], message: String) throws {
        let run = try VouchdRun(["check-config"], environment: environment)
        #expect(run.status == 78)
        #expect(run.errors.contains(message), "\(run.errors)")
    }
}
