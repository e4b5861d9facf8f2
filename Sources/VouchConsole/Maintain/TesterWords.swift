import VouchConsoleKit
import VouchDomain

/// Words for a tester's personal data, shown only to the tester and to people who manage testers.
enum TesterWords {
    /// The display name, or what is left of it after withdrawal.
    static func name(_ tester: Tester, _ messages: Messages = .english) -> String { tester.name ?? messages[.testerWordsWithdrawn] }

    /// "VoiceOver on iOS, version 18.2", "iOS の VoiceOver、バージョン 18.2".
    static func assistiveTech(_ profile: AssistiveTechProfile, _ messages: Messages = .english) -> String {
        guard messages.language == .en else {
            let names = ["technology": messages.technology(profile.technology), "platform": Words.platform(profile.platform)]
            return profile.version.map { messages(.testerWordsTechnologyOnVersion, names.merging(["version": $0]) { $1 }) }
                ?? messages(.latestTechnologyOn, names)
        }
        let name = profile.technology.displayName
        let capitalised = name.prefix(1).uppercased() + name.dropFirst()
        return capitalised + " on " + Words.platform(profile.platform) + (profile.version.map { ", version \($0)" } ?? "")
    }

    /// Every technology the tester uses, or what to say when none is left.
    static func assistiveTech(of tester: Tester, _ messages: Messages = .english) -> String {
        guard !tester.assistiveTech.isEmpty else { return messages[.testerWordsNoneRecorded] }
        return tester.assistiveTech.map { assistiveTech($0, messages) }.joined(separator: messages.language == .en ? "; " : "、")
    }

    static func status(_ tester: Tester, _ messages: Messages = .english) -> StatusTag {
        tester.isActive ? StatusTag(messages[.testerWordsActive], tone: .good) : StatusTag(messages[.testerWithdrawnRow])
    }
}
