import VouchDomain
import VouchJSON

extension Feedback {
    public var jsonValue: JSONValue {
        .object([
            "id": .string(id), "fix": .string(fixKey), "revision": .int(revision),
            // A withdrawn tester's verdict stays, unlinked: "withdrawn" stands where the pseudonym was.
            "tester": .string(testerID ?? "withdrawn"),
            "platform": .string(platform.rawValue), "os_version": .string(osVersion), "device": .optional(device), "app_build": .string(appBuild),
            "assistive_tech": .string(assistiveTech.rawValue), "at_version": .optional(atVersion),
            "browser": .optional(browser?.rawValue), "browser_version": .optional(browserVersion),
            "verdict": .string(verdict.rawValue), "task_outcome": .string(taskOutcome.rawValue), "severity": .string(severity.rawValue),
            "name_announced": .optional(nameAnnounced?.rawValue), "role_announced": .optional(roleAnnounced?.rawValue),
            "state_announced": .optional(stateAnnounced?.rawValue), "focus_order": .optional(focusOrder?.rawValue),
            "heard": .optional(heard), "regression": .bool(regression), "wcag": .strings(wcag), "comment": .optional(comment),
            "blocking": .bool(isBlocking),
            "channel": .string(channel.rawValue), "recorded_by": .string(recordedBy), "recorded_at": .string(Timestamp.string(recordedAt)),
            // Entered on a personal link: which, who made it, and the staff member who opened it, if one did.
            "link": link.map { .object(["id": .string($0.id), "created_by": .string($0.createdBy), "opened_by": .optional($0.openedBy)]) } ?? .null,
        ])
    }
}

extension FeedbackDraft {
    public static let readOnlyFields = ["id", "fix", "revision", "blocking", "recorded_by", "recorded_at", "link"]

    /// Reads one feedback object; `prefix` names its place in a batch (`[3].`).
    public static func read(_ json: JSONValue, prefix: String = "") -> (draft: FeedbackDraft, errors: [FieldError]) {
        guard case .object(let object) = json else {
            return (FeedbackDraft(), [FieldError(field: prefix.isEmpty ? "(body)" : String(prefix.dropLast()), message: "must be a JSON object, got \(json.typeName)")])
        }
        var draft = FeedbackDraft()
        var reader = JSONFieldReader(object: object, prefix: prefix)
        draft.tester = reader.string("tester")
        draft.platform = reader.string("platform")
        draft.osVersion = reader.string("os_version")
        draft.device = reader.nullableString("device") ?? nil
        draft.appBuild = reader.string("app_build")
        draft.assistiveTech = reader.string("assistive_tech")
        draft.atVersion = reader.nullableString("at_version") ?? nil
        draft.browser = reader.nullableString("browser") ?? nil
        draft.browserVersion = reader.nullableString("browser_version") ?? nil
        draft.verdict = reader.string("verdict")
        draft.taskOutcome = reader.string("task_outcome")
        draft.severity = reader.string("severity")
        draft.nameAnnounced = reader.nullableString("name_announced") ?? nil
        draft.roleAnnounced = reader.nullableString("role_announced") ?? nil
        draft.stateAnnounced = reader.nullableString("state_announced") ?? nil
        draft.focusOrder = reader.nullableString("focus_order") ?? nil
        draft.heard = reader.nullableString("heard") ?? nil
        draft.regression = reader.bool("regression")
        draft.wcag = reader.stringList("wcag")
        draft.comment = reader.nullableString("comment") ?? nil
        draft.channel = reader.string("channel")
        reader.refuse(FeedbackDraft.readOnlyFields, because: "is read-only; the server sets it")
        do {
            try reader.finish()
            return (draft, [])
        } catch {
            return (draft, error.errors)
        }
    }
}
