import VouchConsoleKit
import VouchDomain
import VouchServices

/// The fields of a new invitation as the page shows them, named as the API's fields and kept exactly as typed.
struct InvitationForm {
    var note = ""
    var language = ""
    var fixes: [String] = []
    var panels: [String] = []
    var keys = ""
    var expires = "14d"
    var uses = "1"

    init() {}

    init(_ request: ConsoleRequest) {
        note = request.field("name_hint")
        language = request.field("language")
        fixes = request.form.values("fixes")
        panels = request.form.values("panels")
        keys = request.form["targeting_keys"] ?? ""
        expires = request.field("expires_in")
        uses = request.field("uses")
    }

    var usesNumber: Int? { Int(uses) }

    static func fields(_ messages: Messages) -> FormFields {
        FormFields([("name_hint", messages[.invitationsNoteLabel]), ("language", messages[.invitationsLanguageLegend]),
                    ("fixes", messages[.invitationsFixesLegend]), ("panels", messages[.invitationsPanelsLegend]), ("targeting_keys", messages[.invitationsKeysLabel]),
                    ("expires_in", messages[.invitationsExpiresLabel]), ("uses", messages[.invitationsUsesLabel])])
    }

    func render(fixes available: [Fix], panels groups: [Panel], issues: [FieldIssue], _ messages: Messages) -> HTML {
        func issue(_ field: String) -> FieldIssue? { issues.first { $0.field == field || $0.field.hasPrefix(field + "[") } }
        let languages = Language.allCases.map { RadioGroup.Option($0.rawValue, $0.nativeName) }
        let panelOptions = groups.map { RadioGroup.Option($0.id, $0.name) }
        let fixOptions = available.map { RadioGroup.Option($0.key.rawValue, $0.title, hint: $0.key.rawValue) }
        return HTML.join([
            TextField(name: "name_hint", label: messages[.invitationsNoteLabel], hint: messages[.invitationsNoteHint], value: note,
                      issue: issue("name_hint"), autocomplete: "off").render(messages),
            RadioGroup(name: "language", legend: messages[.invitationsLanguageLegend], hint: messages[.invitationsLanguageHint], options: languages,
                       selected: language.isEmpty ? messages.language.rawValue : language, issue: issue("language"), inline: true).render(messages),
            fixOptions.isEmpty ? .empty : CheckboxGroup(name: "fixes", legend: messages[.invitationsFixesLegend], hint: messages[.invitationsFixesHint],
                                                        options: fixOptions, selected: Set(fixes), issue: issue("fixes")).render(messages),
            panelOptions.isEmpty ? .empty : CheckboxGroup(name: "panels", legend: messages[.invitationsPanelsLegend], hint: messages[.invitationsPanelsHint],
                                                          options: panelOptions, selected: Set(panels), issue: issue("panels")).render(messages),
            TextArea(name: "targeting_keys", label: messages[.invitationsKeysLabel], hint: messages[.invitationsKeysHint], value: keys,
                     issue: issue("targeting_keys"), rows: 2).render(messages),
            TextField(name: "expires_in", label: messages[.invitationsExpiresLabel], hint: messages[.invitationsExpiresHint], value: expires,
                      issue: issue("expires_in"), autocomplete: "off", width: "input--short", spellcheck: false).render(messages),
            TextField(name: "uses", label: messages[.invitationsUsesLabel], hint: messages[.invitationsUsesHint], value: uses, issue: issue("uses"),
                      type: "text", autocomplete: "off", width: "input--short", spellcheck: false).render(messages),
        ])
    }
}
