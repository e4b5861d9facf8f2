import Foundation
import VouchConsoleKit
import VouchDomain
import VouchJSON

/// The fields of a fix as the create and edit pages show them, named as the API's JSON fields, kept exactly as typed
/// so a page with problems shows them again.
struct FixForm {
    var key = ""
    var title = ""
    var uiArea = ""
    var platforms: Set<String> = []
    /// As typed: "1.1.1, 4.1.2".
    var wcag = ""
    var expectedAnnouncement = ""
    var description = ""
    /// The language tag the text is written in; "" leaves it to the server's default (or, editing, as it is).
    var language = ""

    static let fields = FormFields([
        ("key", "Flag key"), ("title", "Title"), ("ui_area", "UI area"), ("platforms", "Platforms"), ("wcag", "WCAG success criteria"),
        ("expected_announcement", "Expected announcement"), ("description", "Description"),
        ("language", "Language"),
    ])

    init() {}

    init(_ fix: Fix) {
        key = fix.key.rawValue
        title = fix.title
        uiArea = fix.uiArea
        platforms = Set(fix.platforms.map(\.rawValue))
        wcag = fix.wcag.joined(separator: ", ")
        expectedAnnouncement = fix.expectedAnnouncement ?? ""
        description = fix.description ?? ""
        language = fix.language ?? ""
    }

    init(_ request: ConsoleRequest) {
        key = request.field("key")
        title = request.field("title")
        uiArea = request.field("ui_area")
        platforms = Set(request.form.values("platforms"))
        wcag = request.field("wcag")
        expectedAnnouncement = request.field("expected_announcement")
        description = request.field("description")
        language = request.field("language")
    }

    /// WCAG numbers separated by commas or blanks.
    var wcagNumbers: [String] {
        wcag.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
    }

    /// The fix's draft: every field, so that an emptied optional field clears it when editing.
    func draft(includingKey: Bool) -> FixDraft {
        FixDraft(key: includingKey ? key : nil, title: title, description: .some(description.isEmpty ? nil : description), uiArea: uiArea,
                 platforms: Platform.allCases.map(\.rawValue).filter(platforms.contains), wcag: wcagNumbers,
                 expectedAnnouncement: .some(expectedAnnouncement.isEmpty ? nil : expectedAnnouncement), language: language.isEmpty ? nil : language)
    }

    /// The form's fields; the key only when creating, since it cannot change afterwards.
    func render(issues: [FieldIssue], includingKey: Bool) -> HTML {
        func issue(_ field: String) -> FieldIssue? { issues.first { $0.field == field } }
        let keyField: HTML = includingKey
            ? TextField(name: "key", label: "Flag key", hint: "What apps ask for the flag by. \(FixKey.rule), such as tv-channel-selector-labels. It cannot be changed later.",
                        value: key, issue: issue("key"), autocomplete: "off", width: "input--medium", spellcheck: false).render()
            : .empty
        let platformOptions = Platform.allCases.map { RadioGroup.Option($0.rawValue, Words.platform($0)) }
        return HTML.join([
            keyField,
            TextField(name: "title", label: "Title", hint: "A short name people will recognise, such as Label channel logos.",
                      value: title, issue: issue("title")).render(),
            TextField(name: "ui_area", label: "UI area", hint: "The human name of the part of the app the fix touches, such as TV channel selector.",
                      value: uiArea, issue: issue("ui_area")).render(),
            CheckboxGroup(name: "platforms", legend: "Platforms", hint: "Select every platform the fix ships on.", options: platformOptions,
                          selected: platforms, issue: issue("platforms")).render(),
            TextField(name: "wcag", label: "WCAG success criteria (optional)",
                      hint: "The WCAG 2.2 success criteria the fix addresses, by number, separated by commas or spaces, such as 1.1.1, 4.1.2.",
                      value: wcag, issue: issue("wcag"), autocomplete: "off", width: "input--medium", spellcheck: false).render(),
            TextField(name: "expected_announcement", label: "Expected announcement (optional)",
                      hint: "What a screen reader should say once the fix works, such as NHK, button, selected.",
                      value: expectedAnnouncement, issue: issue("expected_announcement")).render(),
            TextArea(name: "description", label: "Description (optional)", hint: "What changed, and anything testers should know.",
                     value: description, issue: issue("description")).render(),
            RadioGroup(name: "language", legend: "Language of the title, UI area and expected announcement",
                       hint: "On pages in another language, screen readers read them in this language's voice.",
                       options: Language.allCases.map { RadioGroup.Option($0.rawValue, $0.nativeName) }, selected: language.isEmpty ? nil : language,
                       issue: issue("language"), inline: true).render(),
        ])
    }
}
