import VouchCrypto
import VouchDomain
import VouchJSON

/// A tester's answers between the feedback pages, kept in the store per session and fix, by the API's field names.
///
/// The idempotency key is made when the answers start and sent with them, so a second "Send feedback" (a double
/// click, a resent form) is replayed by the feedback service instead of recorded twice. Once sent, the answers are dropped and
/// only the key and the feedback's id stay, until she starts again: a late second send then finds them and lands on
/// the confirmation (docs/console.md, "Feedback pages").
struct FeedbackAnswers: Sendable, Equatable {
    /// What was sent with which key.
    struct Sent: Sendable, Equatable {
        var idempotencyKey: String
        var feedbackID: String
    }

    var idempotencyKey: String
    var values: [String: String] = [:]
    var sent: Sent?

    /// New, empty answers with a key of their own.
    static func start() -> FeedbackAnswers {
        FeedbackAnswers(idempotencyKey: SecureRandom.alphanumeric(count: 32))
    }

    subscript(field: String) -> String? {
        get { values[field] }
        set { values[field] = newValue.flatMap { $0.isEmpty ? nil : $0 } }
    }

    /// The platform she tested on: her answer, or the fix's only platform, which is not asked.
    func platform(for fix: Fix) -> Platform? {
        if let answer = values["platform"] { return Platform(rawValue: answer) }
        return fix.platforms.count == 1 ? fix.platforms[0] : nil
    }

    /// The answers as the API's feedback record: only the fields she answered, browser fields only for the web, in a
    /// fixed order, so the same answers always make the same bytes (the service compares them under one idempotency key).
    func body(for fix: Fix) -> JSONValue {
        let platform = platform(for: fix)
        var object = JSONObject()
        if let platform { object["platform"] = .string(platform.rawValue) }
        for field in FeedbackAnswers.textFields {
            if (field == "browser" || field == "browser_version") && platform != .web { continue }
            if let value = values[field] { object[field] = .string(value) }
        }
        if let regression = values["regression"] { object["regression"] = regression == "yes" ? .bool(true) : regression == "no" ? .bool(false) : .string(regression) }
        return .object(object)
    }

    /// The answers as the domain's draft, to check a page's answers with the API's own rules before going on.
    func draft(for fix: Fix, testerID: String) -> FeedbackDraft {
        let body = body(for: fix)
        var draft = FeedbackDraft()
        draft.tester = testerID
        draft.platform = body["platform"]?.stringValue
        draft.osVersion = body["os_version"]?.stringValue
        draft.device = body["device"]?.stringValue
        draft.appBuild = body["app_build"]?.stringValue
        draft.browser = body["browser"]?.stringValue
        draft.browserVersion = body["browser_version"]?.stringValue
        draft.assistiveTech = body["assistive_tech"]?.stringValue
        draft.atVersion = body["at_version"]?.stringValue
        draft.verdict = body["verdict"]?.stringValue
        draft.taskOutcome = body["task_outcome"]?.stringValue
        draft.severity = body["severity"]?.stringValue
        draft.nameAnnounced = body["name_announced"]?.stringValue
        draft.roleAnnounced = body["role_announced"]?.stringValue
        draft.stateAnnounced = body["state_announced"]?.stringValue
        draft.focusOrder = body["focus_order"]?.stringValue
        draft.heard = body["heard"]?.stringValue
        draft.comment = body["comment"]?.stringValue
        draft.regression = body["regression"]?.boolValue
        return draft
    }

    /// The string fields after `platform`, in the order the record lists them.
    static let textFields = ["os_version", "device", "app_build", "browser", "browser_version", "assistive_tech", "at_version", "verdict",
                             "task_outcome", "severity", "name_announced", "role_announced", "state_announced", "focus_order", "heard", "comment"]
}

extension FeedbackAnswers {
    /// The stored text: `{"idempotency_key", "answers": {…}, "sent": {"idempotency_key", "feedback"} | null}`.
    var storedText: String {
        let sentValue: JSONValue = sent.map {
            .object(["idempotency_key": .string($0.idempotencyKey), "feedback": .string($0.feedbackID)])
        } ?? .null
        let answers = JSONObject(values.sorted { $0.key < $1.key }.map { (key: $0.key, value: JSONValue.string($0.value)) })
        return JSONWriter.string(.object(["idempotency_key": .string(idempotencyKey), "answers": .object(answers), "sent": sentValue]))
    }

    /// Reads what `storedText` wrote; nil for text it did not write, which then counts as no answers.
    init?(storedText: String) {
        guard let json = try? JSONParser.parse(storedText), let key = json["idempotency_key"]?.stringValue else { return nil }
        idempotencyKey = key
        for member in json["answers"]?.objectValue?.members ?? [] {
            if let value = member.value.stringValue { values[member.key] = value }
        }
        if let sentKey = json["sent"]?["idempotency_key"]?.stringValue, let feedbackID = json["sent"]?["feedback"]?.stringValue {
            sent = Sent(idempotencyKey: sentKey, feedbackID: feedbackID)
        }
    }
}
