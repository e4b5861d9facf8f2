import VouchDomain

/// The assistive technologies the interview offers for one platform, in groups a listener can take in one at a time
/// (screen readers; switch and voice control; vision), rather than all fifteen in one spoken line. Each platform's own
/// screen reader comes first. A technology not offered for the platform is still accepted when its name is typed.
enum AssistiveTechChoices {
    struct Group {
        var name: String
        var technologies: [AssistiveTechnology]
    }

    static func groups(for platform: Platform?) -> [Group] {
        let vision = Group(name: "Vision", technologies: [.brailleDisplay, .screenMagnifier, .largeText])
        let other = Group(name: "Or", technologies: [.other])
        switch platform {
        case .ios:
            return [Group(name: "Screen reader", technologies: [.voiceover]),
                    Group(name: "Switch and voice control", technologies: [.switchControl, .voiceControl]), vision, other]
        case .android:
            return [Group(name: "Screen reader", technologies: [.talkback]),
                    Group(name: "Switch and voice control", technologies: [.switchAccess, .voiceAccess]), vision, other]
        case .web, nil:
            // On the web, desktop screen readers first, then the phones' own, read in their browsers.
            return [Group(name: "Screen readers", technologies: [.nvda, .jaws, .voiceover, .narrator, .orca, .chromevox, .talkback]),
                    Group(name: "Switch and voice control", technologies: [.switchControl, .switchAccess, .voiceControl, .voiceAccess]), vision, other]
        }
    }

    /// Screen readers say names, roles and states, so the interview asks what this one said by its name (as the console does).
    static let screenReaders: Set<String> = ["voiceover", "talkback", "nvda", "jaws", "narrator", "orca", "chromevox"]

    static func choice(_ technology: AssistiveTechnology) -> Prompter.Choice {
        Prompter.Choice(value: technology.rawValue, words: SpokenWords.say(technology.rawValue, .assistiveTech))
    }
}
