import Foundation
import VouchDomain

/// Notifications by email as configured (`notifications.*`; docs/notifications.md): the values as written, checked
/// by `DaemonSettings`; the application makes the mail worker from them.
public struct MailSettings: Sendable {
    /// Empty: no mail is sent and none queued.
    public var smtpURL: String
    public var from: String
    /// Empty: no login.
    public var credentialsFile: String
    public var timeoutSeconds: Int
    /// Waits before each retry, in seconds (`webhooks.retry_schedule`).
    public var retryDelays: [Int]

    public init(smtpURL: String = "", from: String = "", credentialsFile: String = "", timeoutSeconds: Int = 30,
                retryDelays: [Int] = DeliverySchedule.defaultDelays) {
        self.smtpURL = smtpURL
        self.from = from
        self.credentialsFile = credentialsFile
        self.timeoutSeconds = timeoutSeconds
        self.retryDelays = retryDelays
    }

    public var isConfigured: Bool { !smtpURL.isEmpty && !from.isEmpty }

    /// The user name and password from `credentialsFile`: its first two lines. Nil when no file is named.
    public func credentials() throws -> (username: String, password: String)? {
        guard !credentialsFile.isEmpty else { return nil }
        let text: String
        do { text = try String(contentsOfFile: credentialsFile, encoding: .utf8) } catch {
            throw ConfigurationError("notifications.credentials_file: cannot read \(credentialsFile): \(error.localizedDescription)")
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\r")) }
        guard lines.count >= 2, !lines[0].isEmpty, !lines[1].isEmpty else {
            throw ConfigurationError("notifications.credentials_file: \(credentialsFile) must hold the user name on its first line and the password on its second")
        }
        return (lines[0], lines[1])
    }
}
