import Foundation
import VouchCrypto
import VouchDomain
import VouchStore

/// The outbox of notifications by email as staff see it, and the one-click unsubscribe a mail carries
/// (docs/notifications.md).
public struct NotificationService: Sendable {
    let store: any NotificationStore & ServerKeyStore
    let clock: @Sendable () -> Date

    /// The server key unsubscribe addresses are signed with; made once, kept in the store.
    public static let keyName = "notifications-unsubscribe"

    public init(store: any NotificationStore & ServerKeyStore, clock: @escaping @Sendable () -> Date) {
        self.store = store
        self.clock = clock
    }

    /// The outbox, oldest id first; never an address.
    public func notifications(status: MailNotification.Status?, after id: String?, limit: Int, for principal: Principal) throws -> [MailNotification] {
        try AccessDenied.unless(principal, may: .manageTesters)
        return try store.notifications(status: status, after: id, limit: limit)
    }

    /// The recipient and kind an unsubscribe token stands for, or nil for a token this server did not make.
    public func unsubscribeTarget(of token: String) throws -> (recipient: String, kind: NotificationKind)? {
        let key = try NotificationService.unsubscribeKey(in: store)
        guard let payload = SignedToken.payload(of: token, key: key) else { return nil }
        let parts = payload.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, let recipient = NotificationService.unhex(parts[0]), let kind = NotificationKind(rawValue: parts[1]),
              kind.canUnsubscribe else { return nil }
        return (recipient, kind)
    }

    /// Switches off the kind of mail the token names for its recipient (RFC 8058's one-click POST, or the page's button).
    /// - Returns: false for a token this server did not make, or a recipient who is no longer there.
    public func unsubscribe(token: String) throws -> Bool {
        guard let target = try unsubscribeTarget(of: token) else { return false }
        return try store.optOut(recipient: target.recipient, kind: target.kind, at: clock())
    }

    /// The token in a mail's unsubscribe address: the recipient in hex (a staff principal's name may hold any
    /// character), the kind, and their MAC.
    public static func unsubscribeToken(recipient: String, kind: NotificationKind, key: [UInt8]) -> String {
        SignedToken.make(Digest.hex(Array(recipient.utf8)) + "." + kind.rawValue, key: key)
    }

    static func unhex(_ text: String) -> String? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0, !digits.isEmpty else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    public static func unsubscribeKey(in store: any ServerKeyStore) throws -> [UInt8] {
        try store.serverKey(named: keyName, generate: { SecureRandom.bytes(count: 32) })
    }
}
