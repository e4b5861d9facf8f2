import Foundation
import Testing
import VouchDomain

/// The OS version is stored as the number alone where the platform already names the system (the console asks
/// "For example, 18.2"), so lists never say "iOS, iOS 18.2"; the API applies the same rule, as it shares the validator.
struct OSVersionTests {
    @Test(arguments: [
        ("iOS 18.2", Platform.ios, "18.2"), ("ios 18.2", .ios, "18.2"), ("iOS18.2", .ios, "18.2"), ("iPadOS 18.1", .ios, "18.1"),
        ("iOS version 18.2", .ios, "18.2"), ("18.2", .ios, "18.2"), ("Android 15", .android, "15"), ("android-15", .android, "15"),
        ("Android version 15", .android, "15"), ("15", .android, "15"),
    ])
    func aRepeatedPlatformNameIsLeftOut(typed: String, platform: Platform, stored: String) {
        #expect(FeedbackValidator.osVersionNumber(typed, platform: platform) == stored)
    }

    /// On the web the system is the computer's and is kept; what would not leave a number is kept as typed.
    @Test(arguments: [
        ("Windows 11", Platform.web), ("macOS 15.2", .web), ("iOS 18.2", .web), ("iOS", .ios), ("iOS beta", .ios), ("iOSX 3", .ios),
        ("Android", .android), ("HarmonyOS 4", .android),
    ])
    func otherTextIsKeptAsTyped(typed: String, platform: Platform) {
        #expect(FeedbackValidator.osVersionNumber(typed, platform: platform) == typed)
    }

    @Test func theRecordKeepsTheNumber() throws {
        let fix = Fix(key: try FixKey(validating: "tv-channel-selector-labels"), title: "Label the channel logos", uiArea: "TV channel selector",
                      platforms: [.ios], author: "maria", state: .testing, createdAt: .now, updatedAt: .now)
        var draft = FeedbackDraft()
        draft.tester = "t_7xerzhc30sjq"
        draft.platform = "ios"
        draft.osVersion = "  iOS 18.2 "
        draft.appBuild = "5.4.1 (412)"
        draft.assistiveTech = "voiceover"
        draft.verdict = "passed"
        draft.taskOutcome = "completed_independently"
        draft.severity = "none"
        let feedback = try FeedbackValidator.makeFeedback(from: draft, id: "fb_1", fix: fix, channel: .http, recordedBy: "admin", at: .now)
        #expect(feedback.osVersion == "18.2")
    }
}
