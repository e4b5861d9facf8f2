import Testing
import VouchTestSupport
@testable import VouchStore

struct PostgresNotificationListenerTests {
    @Test func aNotificationArrivesWhenItsTransactionCommitsAndNeverWhenItRollsBack() throws {
        try PostgresTestDatabase.run { server in
            let database = try server.makeDatabase()
            let listener = try PostgresNotificationListener(url: server.url, channel: "vouch_changes")
            #expect(try listener.wait(timeout: .zero) == .init(payloads: [], reconnected: false))
            #expect(throws: RefusedOnPurpose.self) {
                try database.write { connection in
                    try PostgresNotificationListener.notify(channel: "vouch_changes", payload: "rolled back", on: connection)
                    throw RefusedOnPurpose()
                }
            }
            try database.write { connection in
                try PostgresNotificationListener.notify(channel: "vouch_changes", payload: "revision 7", on: connection)
                try PostgresNotificationListener.notify(channel: "elsewhere", payload: "not for us", on: connection)
            }
            // Notifications arrive in commit order, so the rolled-back one would have come first.
            #expect(try listener.wait(timeout: .seconds(10)) == .init(payloads: ["revision 7"], reconnected: false))
        }
    }

    @Test func aListenerWhoseSessionWasEndedReconnectsSaysSoAndHearsAgain() throws {
        try PostgresTestDatabase.run { server in
            let database = try server.makeDatabase()
            let listener = try PostgresNotificationListener(url: server.url, channel: "Vouch \"changes\"")
            let killer = try server.makeConnection()
            let pid = try #require(try killer.scalar("SELECT pid FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND datname = current_database()"))
            try PostgresDatabaseTests.terminate(pid, using: killer)
            #expect(try listener.wait(timeout: .seconds(10)) == .init(payloads: [], reconnected: true))
            try database.write { try PostgresNotificationListener.notify(channel: "Vouch \"changes\"", payload: "after", on: $0) }
            #expect(try listener.wait(timeout: .seconds(10)) == .init(payloads: ["after"], reconnected: false))
        }
    }

    @Test(arguments: ["", String(repeating: "c", count: 64)])
    func aChannelNamePostgreSQLCannotHoldIsRefusedOnPurpose(channel: String) throws {
        let error = try #require(throws: PostgresError.self) { try PostgresNotificationListener(url: "postgresql:///unused", channel: channel) }
        #expect(error.message == "channel must be 1 to 63 bytes long, not \(channel.utf8.count)")
    }
}
