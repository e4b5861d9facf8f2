import VouchDomain
import VouchJSON

extension FixDraft {
    /// Fields the server maintains; sending them is refused by name rather than silently ignored.
    public static let readOnlyFields = ["state", "revision", "author", "paused_from", "rollout_percentage", "allowed_actions", "created_at", "updated_at", "testing_since", "criteria", "rollout"]

    /// Reads a JSON object into a draft, checking each member's type; unknown members are errors.
    ///
    /// The draft is returned with the problems found, so the caller can report them together with the
    /// validator's, in one answer.
    public static func read(_ json: JSONValue) -> (draft: FixDraft, errors: [FieldError]) {
        guard case .object(let object) = json else {
            return (FixDraft(), [FieldError(field: "(body)", message: "must be a JSON object, got \(json.typeName)")])
        }
        var draft = FixDraft()
        var reader = JSONFieldReader(object: object)
        draft.key = reader.string("key")
        draft.title = reader.string("title")
        draft.description = reader.nullableString("description")
        draft.uiArea = reader.string("ui_area")
        draft.platforms = reader.stringList("platforms")
        draft.wcag = reader.stringList("wcag")
        draft.expectedAnnouncement = reader.nullableString("expected_announcement")
        draft.language = reader.string("language")
        reader.refuse(FixDraft.readOnlyFields, because: "is read-only; the server sets it")
        do {
            try reader.finish()
            return (draft, [])
        } catch {
            return (draft, error.errors)
        }
    }
}
