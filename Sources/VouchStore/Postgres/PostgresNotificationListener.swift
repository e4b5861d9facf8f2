import CPostgres
import Foundation

/// A session of its own that `LISTEN`s on one channel and hands out the payloads NOTIFY sends there.
///
/// PostgreSQL delivers a notification only when the transaction that sent it commits, and never one sent by a
/// transaction that rolled back; so a node woken by one reads committed data. While the session is lost,
/// notifications are lost too: after reconnecting `wait` says so, and the caller re-reads what it may have missed.
/// Used by one thread at a time (the owner's); it is not `Sendable`.
public final class PostgresNotificationListener {
    public let channel: String
    private let url: String
    private var connection: PostgresConnection?

    /// What one `wait` brought.
    public struct Wakeup: Sendable, Equatable {
        /// The payloads of the notifications received, oldest first.
        public var payloads: [String]
        /// The session was lost and opened again: notifications sent meanwhile were missed.
        public var reconnected: Bool
    }

    /// Connects and listens.
    /// - Parameter channel: 1 to 63 bytes (PostgreSQL's identifier length); any characters, it is quoted.
    public init(url: String, channel: String) throws(PostgresError) {
        guard !channel.isEmpty, channel.utf8.count <= 63 else {
            throw PostgresError(sqlState: nil, message: "channel must be 1 to 63 bytes long, not \(channel.utf8.count)", sql: nil)
        }
        self.url = url
        self.channel = channel
        connection = try listeningConnection()
    }

    private func listeningConnection() throws(PostgresError) -> PostgresConnection {
        let connection = try PostgresConnection(url: url)
        try connection.executeAlone("LISTEN \"\(channel.replacingOccurrences(of: "\"", with: "\"\""))\"")
        return connection
    }

    /// Sends `payload` on `channel` as part of `connection`'s transaction: it is delivered when that commits, and
    /// never if it rolls back. Payloads are at most 7999 bytes (PostgreSQL's limit).
    public static func notify(channel: String, payload: String, on connection: any SQLConnection) throws {
        try connection.query("SELECT pg_notify(?, ?)", [.text(channel), .text(payload)])
    }

    /// Waits until notifications arrive or `timeout` passes, whichever is first.
    ///
    /// A lost session is opened again and listened on, and the call returns at once with `reconnected`. When the
    /// server cannot be reached, it waits out the timeout and throws, so a loop around it retries at that pace.
    public func wait(timeout: Duration) throws(PostgresError) -> Wakeup {
        let deadline = ContinuousClock.now + timeout
        guard let connection, connection.isUsable else { return try reconnect(until: deadline) }
        while true {
            let payloads = Self.takeNotifications(connection)
            if !payloads.isEmpty { return Wakeup(payloads: payloads, reconnected: false) }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return Wakeup(payloads: [], reconnected: false) }
            var descriptor = pollfd(fd: PQsocket(connection.handle), events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(clamping: remaining.milliseconds))
            if ready < 0, errno != EINTR {
                throw PostgresError(sqlState: nil, message: "poll on the listening connection failed: errno \(errno)", sql: nil, connectionBroken: true)
            }
            // Reads what arrived; a closed socket turns the status bad.
            if ready > 0, PQconsumeInput(connection.handle) == 0 || PQstatus(connection.handle) != CONNECTION_OK {
                return try reconnect(until: deadline)
            }
        }
    }

    private func reconnect(until deadline: ContinuousClock.Instant) throws(PostgresError) -> Wakeup {
        connection = nil
        do {
            connection = try listeningConnection()
            return Wakeup(payloads: [], reconnected: true)
        } catch {
            let remaining = ContinuousClock.now.duration(to: deadline)
            if remaining > .zero { Thread.sleep(forTimeInterval: Double(remaining.milliseconds) / 1000) }
            throw error
        }
    }

    private static func takeNotifications(_ connection: PostgresConnection) -> [String] {
        var payloads: [String] = []
        while let notification = PQnotifies(connection.handle) {
            payloads.append(String(cString: notification.pointee.extra))
            PQfreemem(notification)
        }
        return payloads
    }
}
