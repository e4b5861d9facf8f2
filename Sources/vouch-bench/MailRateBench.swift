import Foundation
import VouchDomain
import VouchMail
import VouchNotifications
import VouchServices
import VouchStore

/// Notifications sent per second to a loopback SMTP server: that many mails queued in a fresh store, then the mail
/// worker vouchd runs (two sending threads, libcurl's SMTP) started on them, timed until the last is recorded sent.
enum MailRateBench {
    static func run(stateDirectory: String, mails: Int) throws {
        let responder = try SMTPResponder()
        try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
        let store = try RelationalStore(path: (stateDirectory as NSString).appendingPathComponent("vouch.sqlite3"))
        let time = Date()
        try store.queueNotifications { _ in
            (0..<mails).map { index in
                MailNotification(id: "ntf_bench_\(index)", kind: .withdrawalDone, recipient: "withdrawn", address: "tester\(index)@example.org",
                                 language: index % 2 == 0 ? "en" : "ja", createdAt: time)
            }
        }
        let composer = NotificationComposer(from: try MailAddress("vouch@example.org", for: .from), consoleURL: "https://vouch.example.org",
                                            unsubscribeKey: try NotificationService.unsubscribeKey(in: store))
        let worker = NotificationWorker(store: store, settings: .init(
            server: try SMTPURL("smtp://127.0.0.1:\(responder.port)"), credentials: nil, composer: composer, schedule: DeliverySchedule(),
            timeoutSeconds: 10, leaseMilliseconds: 30_000), onError: { message, error in
                FileHandle.standardError.write(Data("\(message): \(error)\n".utf8))
            })
        let start = Date()
        worker.start()
        let deadline = start.addingTimeInterval(Double(mails) / 10 + 60)
        while worker.sentCount < mails, Date() < deadline { usleep(1_000) }
        let elapsed = Date().timeIntervalSince(start)
        worker.stop()
        guard worker.sentCount == mails, responder.messages == mails else {
            throw BenchError("\(worker.sentCount) of \(mails) mails recorded sent, \(responder.messages) accepted by the SMTP server")
        }
        print("Mails queued: \(mails)")
        print("Mails accepted by the loopback SMTP server: \(responder.messages)")
        print("Mail sending seconds: \(String(format: "%.3f", elapsed))")
        print("Mails sent per second: \(String(format: "%.0f", Double(mails) / elapsed))")
    }
}
