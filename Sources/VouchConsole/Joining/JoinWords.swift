import VouchConsoleKit
import VouchDomain
import VouchServices

/// The join pages' words for what the service decides: problems with an answer, platforms, the answers read back.
enum JoinWords {
    static func issue(_ issue: JoinIssue, _ messages: Messages) -> FieldIssue {
        let message: String
        switch issue.problem {
        case .missing:
            switch issue.field {
            case "name": message = messages[.joinErrorName]
            case "tester_code": message = messages[.joinErrorTesterCode]
            case "assistive_tech[0].name": message = messages[.joinErrorTechnologies]
            case let field where field.hasSuffix(".platform"): message = messages[.joinErrorPlatform]
            default: message = messages[.joinErrorTechnology]
            }
        case .tooLong(let limit): message = messages(.joinErrorTooLong, ["limit": messages.number(limit)])
        case .lineBreaks: message = messages[.joinErrorLineBreaks]
        case .notAnEmail: message = messages[.joinErrorEmail]
        case .unknownChoice: message = issue.field == "language" ? messages[.joinErrorLanguage] : messages[.joinErrorChoice]
        case .browserOffTheWeb: message = messages[.joinErrorBrowserOffWeb]
        }
        return FieldIssue(field: issue.field, message: message)
    }

    /// Platform names: iOS and Android are their makers' names in every language; the web is a word of the catalog.
    static func platform(_ platform: Platform, _ messages: Messages) -> String {
        switch platform {
        case .ios: "iOS"
        case .android: "Android"
        case .web: messages[.joinPlatformWeb]
        }
    }

    /// "VoiceOver, iOS, 18.2" or "NVDA, Web, 2024.4, Firefox".
    static func technology(_ row: JoinAnswers.Technology, _ messages: Messages) -> String {
        var parts = [AssistiveTechnology(rawValue: row.name).map(messages.technology) ?? row.name,
                     Platform(rawValue: row.platform).map { platform($0, messages) } ?? row.platform]
        if !row.version.isEmpty { parts.append(row.version) }
        if let browser = Browser(rawValue: row.browser) { parts.append(messages.browser(browser)) }
        return parts.joined(separator: messages.language == .ja ? "、" : ", ")
    }

    /// Her answers read back, each with a link to change it.
    static func summary(_ answers: JoinAnswers, _ visit: JoinService.Visit, _ messages: Messages, change: (JoinStep) -> String) -> HTML {
        let technologies = (answers.technologies ?? []).filter { !$0.isEmpty }.map { technology($0, messages) }
        let email = (answers.email ?? "").isEmpty ? messages[.joinEmailNone] : answers.email ?? ""
        let consentLanguage = Language(rawValue: visit.draft.consentLanguage)?.nativeName ?? visit.draft.consentLanguage
        var rows = [
            SummaryList.Row(messages[.joinRowName], text: answers.name ?? "", changeHref: change(.name), changeSubject: messages[.joinRowName]),
            SummaryList.Row(messages[.joinRowEmail], text: email, changeHref: change(.email), changeSubject: messages[.joinRowEmail]),
            SummaryList.Row(messages[.joinRowTechnology], HTML.join(technologies.map { "<p class=\"body\">\($0)</p>" }),
                            changeHref: change(.technologies), changeSubject: messages[.joinRowTechnology]),
        ]
        if visit.steps.contains(.testerCode) {
            rows.append(SummaryList.Row(messages[.joinRowTesterCode], text: answers.testerCode ?? "", changeHref: change(.testerCode),
                                        changeSubject: messages[.joinRowTesterCode]))
        }
        rows.append(SummaryList.Row(messages[.joinRowLanguage], text: Language(rawValue: answers.language ?? "")?.nativeName ?? "",
                                    changeHref: change(.language), changeSubject: messages[.joinRowLanguage]))
        rows.append(SummaryList.Row(messages[.joinRowConsent], text: messages(.joinConsentValue, ["version": visit.draft.consentVersion,
                                                                                                  "language": consentLanguage])))
        return SummaryList(rows).render(messages)
    }
}
