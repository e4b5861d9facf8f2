import VouchConsoleKit
import VouchDomain

/// Words for a tester's personal data, shown only to the tester and to people who manage testers.
enum TesterWords {
    /// The display name, or what is left of it after withdrawal.
    static func name(_ tester: Tester) -> String { tester.name ?? "Withdrawn tester" }

    /// "VoiceOver on iOS, version 18.2".
    static func assistiveTech(_ profile: AssistiveTechProfile) -> String {
        let name = profile.technology.displayName
        let capitalised = name.prefix(1).uppercased() + name.dropFirst()
        return capitalised + " on " + Words.platform(profile.platform) + (profile.version.map { ", version \($0)" } ?? "")
    }

    /// Every technology the tester uses, or what to say when none is left.
    static func assistiveTech(of tester: Tester) -> String {
        tester.assistiveTech.isEmpty ? "None recorded" : tester.assistiveTech.map(assistiveTech).joined(separator: "; ")
    }

    static func status(_ tester: Tester) -> StatusTag {
        tester.isActive ? StatusTag("Active", tone: .good) : StatusTag("Withdrawn")
    }
}
