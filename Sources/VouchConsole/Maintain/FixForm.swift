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

    /// The fields' labels, for the problems the service names by field.
    static func fields(_ messages: Messages) -> FormFields {
        FormFields([
            ("key", messages[.fixFormFlagKey]), ("title", messages[.fixFormTitle]), ("ui_area", messages[.fixFormUiArea]),
            ("platforms", messages[.fixFormPlatforms]), ("wcag", messages[.fixFormWcag]),
            ("expected_announcement", messages[.fixFormExpectedAnnouncement]), ("description", messages[.fixFormDescription]),
            ("language", messages[.fixFormLanguage]),
        ])
    }

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
    func render(issues: [FieldIssue], includingKey: Bool, _ messages: Messages) -> HTML {
        func issue(_ field: String) -> FieldIssue? { issues.first { $0.field == field } }
        let keyField: HTML = includingKey
            ? TextField(name: "key", label: messages[.fixFormFlagKey], hint: messages[.fixFormFlagKeyHint],
                        value: key, issue: issue("key"), autocomplete: "off", width: "input--medium", spellcheck: false).render(messages)
            : .empty
        let platformOptions = Platform.allCases.map { RadioGroup.Option($0.rawValue, Words.platform($0)) }
        return HTML.join([
            keyField,
            TextField(name: "title", label: messages[.fixFormTitle], hint: messages[.fixFormTitleHint], value: title, issue: issue("title")).render(messages),
            TextField(name: "ui_area", label: messages[.fixFormUiArea], hint: messages[.fixFormUiAreaHint], value: uiArea, issue: issue("ui_area")).render(messages),
            CheckboxGroup(name: "platforms", legend: messages[.fixFormPlatforms], hint: messages[.fixFormPlatformsHint], options: platformOptions,
                          selected: platforms, issue: issue("platforms")).render(messages),
            TextField(name: "wcag", label: messages[.fixFormWcagOptional], hint: messages[.fixFormWcagHint],
                      value: wcag, issue: issue("wcag"), autocomplete: "off", width: "input--medium", spellcheck: false).render(messages),
            TextField(name: "expected_announcement", label: messages[.fixFormExpectedAnnouncementOptional], hint: messages[.fixFormExpectedAnnouncementHint],
                      value: expectedAnnouncement, issue: issue("expected_announcement")).render(messages),
            TextArea(name: "description", label: messages[.fixFormDescriptionOptional], hint: messages[.fixFormDescriptionHint],
                     value: description, issue: issue("description")).render(messages),
            RadioGroup(name: "language", legend: messages[.fixFormLanguageLegend], hint: messages[.fixFormLanguageHint],
                       options: Language.allCases.map { RadioGroup.Option($0.rawValue, $0.nativeName) }, selected: language.isEmpty ? nil : language,
                       issue: issue("language"), inline: true).render(messages),
        ])
    }
}
