import VouchDomain
import VouchJSON

extension Fix {
    /// The API's representation of a fix (snake_case; the fields of docs/lifecycle.md, "Fixes").
    public var jsonValue: JSONValue {
        var object: JSONObject = [
            "key": .string(key.rawValue),
            "title": .string(title),
            "description": .optional(description),
            "ui_area": .string(uiArea),
            "platforms": .strings(platforms.map(\.rawValue)),
            "wcag": .strings(wcag),
            "expected_announcement": .optional(expectedAnnouncement),
            "language": .optional(language),
            "author": .string(author),
            "revision": .int(revision),
            "state": .string(state.rawValue),
        ]
        object["paused_from"] = .optional(pausedFrom?.rawValue)
        object["rollout_percentage"] = rolloutPercentage.map(JSONValue.int) ?? .null
        object["allowed_actions"] = .strings(Lifecycle.allowedActions(from: state, pausedFrom: pausedFrom).filter(\.isCommand).map(\.rawValue))
        object["testing_since"] = .optional(testingSince.map(Timestamp.string))
        object["criteria"] = criteria.jsonValue
        object["rollout"] = rollout.map { plan in
            .object(["steps": .array(plan.steps.map(JSONValue.int)), "interval": .string(DurationText.string(plan.intervalSeconds)),
                     "next_step_at": .optional(nextRolloutStepAt.map(Timestamp.string))])
        } ?? .null
        object["created_at"] = .string(Timestamp.string(createdAt))
        object["updated_at"] = .string(Timestamp.string(updatedAt))
        return .object(object)
    }
}
