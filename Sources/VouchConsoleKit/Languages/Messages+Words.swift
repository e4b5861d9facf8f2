import VouchDomain

/// Stored values in the page's language: what a person reads instead of `cant_tell` or `rolled_back`.
extension Messages {
    public func state(_ state: FixState) -> String {
        switch state {
        case .draft: self[.stateDraft]
        case .testing: self[.stateTesting]
        case .promoting: self[.statePromoting]
        case .promotionFailed: self[.statePromotionFailed]
        case .releasing: self[.stateReleasing]
        case .released: self[.stateReleased]
        case .paused: self[.statePaused]
        case .rolledBack: self[.stateRolledBack]
        case .abandoned: self[.stateAbandoned]
        }
    }

    public func verdict(_ verdict: Verdict) -> String {
        switch verdict {
        case .passed: self[.verdictPassed]
        case .failed: self[.verdictFailed]
        case .cantTell: self[.verdictCantTell]
        }
    }

    /// "VoiceOver", "Braille display": a technology's name as a label starts. Product names stay as their makers
    /// write them in every language; the others are words of the catalog.
    public func technology(_ technology: AssistiveTechnology) -> String {
        switch technology {
        case .voiceover, .talkback, .nvda, .jaws, .orca, .chromevox, .voiceAccess: technology.displayName
        case .narrator: self[.technologyNarrator]
        case .switchControl: self[.technologySwitchControl]
        case .switchAccess: self[.technologySwitchAccess]
        case .voiceControl: self[.technologyVoiceControl]
        case .brailleDisplay: self[.technologyBrailleDisplay]
        case .screenMagnifier: self[.technologyScreenMagnifier]
        case .largeText: self[.technologyLargeText]
        case .other: self[.technologyOther]
        }
    }
}
