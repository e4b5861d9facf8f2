import VouchDomain
import VouchJSON

/// A fix's editable fields as options (the API's field names in kebab-case), shared by `fix create` and `fix update`.
enum FixFields {
    static func options(required: Bool) -> [CommandOption] {
        [
            .single("title", "text", help: "A short name for the fix, such as \"Label the channel logos\".", required: required),
            .single("ui-area", "name", help: "The human name of the UI area the fix touches, such as \"TV channel selector\".", required: required),
            .list("platform", "platform", help: "A platform the fix ships on.", required: required, allowed: Platform.allCases.map(\.rawValue)),
            .list("wcag", "criterion", help: "A WCAG 2.2 success criterion the fix addresses, by number, such as 1.1.1 or 4.1.2."),
            .single("expected-announcement", "text", help: "What a screen reader should say once the fix works, such as \"NHK, button, selected\".",
                    aliases: ["expected"]),
            .single("description", "text", help: "What changed and how to try it, for the people who test it."),
            .single("language", "language", help: "The language the title, UI area and expected announcement are written in. Default on creation: the server's console.default_language.",
                    allowed: ["en", "ja"]),
        ]
    }

    static let optionNames = ["title", "ui-area", "platform", "wcag", "expected-announcement", "description", "language"]

    /// The JSON members for the fields given on the command line, and only those.
    static func body(from invocation: Invocation) -> JSONObject {
        var body = JSONObject()
        if let title = invocation.value("title") { body["title"] = .string(title) }
        if let uiArea = invocation.value("ui-area") { body["ui_area"] = .string(uiArea) }
        if let platforms = invocation.list("platform") { body["platforms"] = .strings(platforms) }
        if let wcag = invocation.list("wcag") { body["wcag"] = .strings(wcag) }
        if let announcement = invocation.value("expected-announcement") { body["expected_announcement"] = .string(announcement) }
        if let description = invocation.value("description") { body["description"] = .string(description) }
        if let language = invocation.value("language") { body["language"] = .string(language) }
        return body
    }
}
