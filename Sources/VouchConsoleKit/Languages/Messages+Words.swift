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

    /// "release manager" rather than `release_manager`: a role as a person says it, in the middle of a sentence.
    public func role(_ role: Role) -> String {
        switch role {
        case .admin: self[.roleAdmin]
        case .releaseManager: self[.roleReleaseManager]
        case .maintainer: self[.roleMaintainer]
        case .tester: self[.roleTester]
        case .sdk: self[.roleSdk]
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

    public func taskOutcome(_ outcome: TaskOutcome) -> String {
        switch outcome {
        case .completedIndependently: self[.outcomeCompletedIndependently]
        case .completedWithWorkaround: self[.outcomeCompletedWithWorkaround]
        case .completedWithAssistance: self[.outcomeCompletedWithAssistance]
        case .notCompleted: self[.outcomeNotCompleted]
        }
    }

    /// How bad the worst problem left is, whether or not she found a way round it; how she got the task done is the
    /// task outcome's to say, so no severity speaks of workarounds or help (docs/console.md, "Task outcome and severity").
    /// Serious and Critical block promotion, so their words say what stops a person.
    public func severity(_ severity: Severity) -> String {
        switch severity {
        case .none: self[.severityNone]
        case .minor: self[.severityMinor]
        case .moderate: self[.severityModerate]
        case .serious: self[.severitySerious]
        case .critical: self[.severityCritical]
        }
    }

    public func announcement(_ announcement: Announcement) -> String {
        switch announcement {
        case .yes: self[.answerYes]
        case .no: self[.answerNo]
        case .notApplicable: self[.answerNotApplicable]
        }
    }

    /// Browsers by their makers' names; "another browser" in words.
    public func browser(_ browser: Browser) -> String {
        switch browser {
        case .chrome: "Chrome"
        case .edge: "Edge"
        case .firefox: "Firefox"
        case .safari: "Safari"
        case .samsungInternet: "Samsung Internet"
        case .other: self[.qBrowserOther]
        }
    }

    /// "ending 9todomw" (`ShortID`): a generated id said by its end, which is all a person needs to recognise it.
    public func shortID(_ id: String) -> String {
        ShortID.isGenerated(id) ? self(.shortIDEnding, ["suffix": String(id.suffix(ShortID.length))]) : id
    }
}
