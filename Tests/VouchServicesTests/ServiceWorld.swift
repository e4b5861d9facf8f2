import Foundation
import VouchDomain
import VouchServices
import VouchStore

/// A fresh SQLite store in its own temporary directory with every service over it, and the people who act on it:
/// each principal holds a real token, since the store confirms a writer's token inside each write.
final class ServiceWorld {
    static let time = Date(timeIntervalSince1970: 1_790_000_000)
    static let fixKey = "tv-channel-selector-labels"

    let directory: String
    let store: RelationalStore
    let promotion: PromotionService
    let services: Services
    let admin: Principal

    /// - Parameter checkWebhookAddress: what a webhook URL check answers; every URL passes by default.
    init(checkWebhookAddress: @escaping WebhookService.AddressCheck = { _ in nil }) throws {
        directory = NSTemporaryDirectory() + "vouch-services-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        store = try RelationalStore(path: directory + "/vouch.sqlite3")
        let clock: @Sendable () -> Date = { ServiceWorld.time }
        promotion = PromotionService(store: store, settings: PromotionSettings(criteria: CriteriaSettings(), maxTimerSleepMilliseconds: 60_000,
                                                                               leaseMilliseconds: 30_000),
                                     clock: clock, logger: Logger(level: .error, sink: { _ in }))
        services = Services(store: store, promotion: promotion, checkWebhookAddress: checkWebhookAddress, makeWebhookSecret: { "whsec_test" },
                            linkValidSeconds: 86_400, clock: clock)
        let token = TokenRecord(id: "tok_admin", name: "admin", principalName: "admin", role: .admin, secretSHA256: [1], createdBy: "vouchd",
                                createdAt: ServiceWorld.time)
        _ = try store.createFirstToken(token, principal: nil)
        admin = Principal(name: "admin", role: .admin, tokenID: token.id)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A staff member with a token of `role`, issued by the admin.
    func staff(_ name: String, _ role: Role) throws -> Principal {
        let token = try services.tokens.create(name: name, role: role.rawValue, tester: nil, issuedTo: nil, by: admin).token
        return Principal(name: token.principalName, role: token.role, tokenID: token.id)
    }

    /// A new active tester who uses VoiceOver on iOS, with a tester token of her own.
    func tester(_ name: String) throws -> Principal {
        let draft = TesterDraft(name: name, assistiveTech: [AssistiveTechProfile(technology: .voiceover, platform: .ios)],
                                targetingKeys: ["user-\(name)"], consentVersion: "2026-11")
        let tester = try services.testers.create(draft, by: admin)
        let token = try services.tokens.create(name: "\(name)-phone", role: "tester", tester: tester.id, issuedTo: nil, by: admin).token
        return Principal(name: token.principalName, role: .tester, testerID: tester.id, tokenID: token.id)
    }

    /// The channel-selector fix, created by `author` and in testing, with `testers` enrolled.
    @discardableResult
    func fixInTesting(by author: Principal, enrolling testers: [Principal]) throws -> Fix {
        let draft = FixDraft(key: ServiceWorld.fixKey, title: "Label channel logos", uiArea: "TV channel selector", platforms: ["ios"],
                             wcag: ["1.1.1"])
        _ = try services.fixes.create(draft, by: author)
        if !testers.isEmpty { _ = try services.enrollments.enroll(testers.compactMap(\.testerID), in: ServiceWorld.fixKey, by: author) }
        return try services.fixes.perform(.start, on: ServiceWorld.fixKey, by: author).after
    }

    /// A complete passing report, as a tester fills it in.
    static func passingDraft(tester: String? = nil) -> FeedbackDraft {
        var draft = FeedbackDraft()
        draft.tester = tester
        draft.platform = "ios"
        draft.osVersion = "18.2"
        draft.appBuild = "412"
        draft.assistiveTech = "voiceover"
        draft.verdict = "passed"
        draft.taskOutcome = "completed_independently"
        draft.severity = "none"
        return draft
    }
}
