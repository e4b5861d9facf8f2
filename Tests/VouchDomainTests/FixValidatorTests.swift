import Foundation
import Testing
import VouchDomain

@Suite struct FixValidatorTests {
    private let created = Date(timeIntervalSince1970: 1_700_000_000)
    private let later = Date(timeIntervalSince1970: 1_700_003_600)

    private func completeDraft() -> FixDraft {
        FixDraft(
            key: "tv-channel-selector-labels", title: "  Label channel logos\n", description: .some(" Adds labels. "),
            uiArea: "\tTV channel selector ", platforms: ["web", "ios", "ios"], wcag: ["4.1.2", "1.1.1", "4.1.2"],
            expectedAnnouncement: .some(" NHK, button, selected ")
        )
    }

    private func fieldNames(_ failure: ValidationFailure) -> [String] { failure.errors.map(\.field) }

    @Test func makesATrimmedNormalizedDraftFix() throws {
        let fix = try FixValidator.makeFix(from: completeDraft(), author: "maintainer-ann", at: created)
        #expect(fix.key.rawValue == "tv-channel-selector-labels")
        #expect(fix.title == "Label channel logos")
        #expect(fix.description == "Adds labels.")
        #expect(fix.uiArea == "TV channel selector")
        #expect(fix.platforms == [.ios, .web])
        #expect(fix.wcag == ["1.1.1", "4.1.2"])
        #expect(fix.expectedAnnouncement == "NHK, button, selected")
        #expect(fix.author == "maintainer-ann")
        #expect(fix.revision == 1)
        #expect(fix.state == .draft)
        #expect(fix.pausedFrom == nil)
        #expect(fix.createdAt == created)
        #expect(fix.updatedAt == created)
    }

    @Test func optionalFieldsMayBeLeftOut() throws {
        let draft = FixDraft(key: "menu-opacity-fix", title: "Opaque menu", uiArea: "Main menu", platforms: ["android"])
        let fix = try FixValidator.makeFix(from: draft, author: "ann", at: created)
        #expect(fix.description == nil)
        #expect(fix.expectedAnnouncement == nil)
        #expect(fix.wcag.isEmpty)
    }

    @Test func emptyDraftNamesEveryRequiredField() throws {
        let failure = try #require(throws: ValidationFailure.self) {
            try FixValidator.makeFix(from: FixDraft(), author: "ann", at: created)
        }
        #expect(fieldNames(failure) == ["key", "title", "ui_area", "platforms"])
        #expect(failure.errors.allSatisfy { $0.message.hasPrefix("is required") })
    }

    @Test(arguments: ["key", "title", "ui_area", "platforms"])
    func eachMissingRequiredFieldIsNamed(field: String) throws {
        var draft = completeDraft()
        switch field {
        case "key": draft.key = nil
        case "title": draft.title = nil
        case "ui_area": draft.uiArea = nil
        default: draft.platforms = nil
        }
        let failure = try #require(throws: ValidationFailure.self) {
            try FixValidator.makeFix(from: draft, author: "ann", at: created)
        }
        #expect(fieldNames(failure) == [field])
    }

    @Test func badPlatformIsNamedWithItsIndex() throws {
        var draft = completeDraft()
        draft.platforms = ["ios", "windows", "web", "tvos"]
        let failure = try #require(throws: ValidationFailure.self) {
            try FixValidator.makeFix(from: draft, author: "ann", at: created)
        }
        #expect(fieldNames(failure) == ["platforms[1]", "platforms[3]"])
        #expect(failure.errors[0].message == "'windows' is not a platform; allowed: ios, android, web")
    }

    @Test func emptyPlatformListIsRefused() throws {
        var draft = completeDraft()
        draft.platforms = []
        let failure = try #require(throws: ValidationFailure.self) {
            try FixValidator.makeFix(from: draft, author: "ann", at: created)
        }
        #expect(fieldNames(failure) == ["platforms"])
    }

    @Test func everyBadFieldIsReportedAtOnce() throws {
        let draft = FixDraft(
            key: "Bad Key", title: "   ", description: .some(String(repeating: "d", count: 4_001)),
            uiArea: String(repeating: "u", count: 201), platforms: ["ios"], wcag: ["4.1.1"],
            expectedAnnouncement: .some("beep\u{07}")
        )
        let failure = try #require(throws: ValidationFailure.self) {
            try FixValidator.makeFix(from: draft, author: "ann", at: created)
        }
        #expect(fieldNames(failure) == ["key", "title", "ui_area", "description", "expected_announcement", "wcag[0]"])
        #expect(failure.errors[1].message == "must not be empty")
        #expect(failure.errors[2].message == "must be at most 200 characters, got 201")
        #expect(failure.errors[4].message == "must not contain control characters other than line breaks and tabs")
    }

    /// As the document's `maxLength` counts: code points as sent, spaces included; the stored title is trimmed.
    @Test func limitsCountCodePointsAsSentAndTheTitleIsStoredTrimmed() throws {
        var draft = completeDraft()
        draft.title = " " + String(repeating: "é", count: 198) + " "
        draft.description = .some("first line\nsecond line\twith a tab")
        let fix = try FixValidator.makeFix(from: draft, author: "ann", at: created)
        #expect(fix.title.count == 198)
        #expect(fix.description == "first line\nsecond line\twith a tab")
        draft.title = " " + String(repeating: "é", count: 200) + " "
        let failure = try #require(throws: ValidationFailure.self) { try FixValidator.makeFix(from: draft, author: "ann", at: created) }
        #expect(failure.errors.map(\.message) == ["must be at most 200 characters, got 202"])
        draft.title = "Labels\r"
        #expect(throws: ValidationFailure.self) { try FixValidator.makeFix(from: draft, author: "ann", at: created) }
    }

    @Test func patchRefusesKeyChange() throws {
        let fix = try FixValidator.makeFix(from: completeDraft(), author: "ann", at: created)
        let failure = try #require(throws: ValidationFailure.self) {
            try FixValidator.applyPatch(FixDraft(key: "other-key", title: ""), to: fix, at: later)
        }
        #expect(fieldNames(failure) == ["key", "title"])
        #expect(failure.errors[0].message.contains("cannot be changed"))
    }

    @Test func patchTrimsAndChangesOnlyGivenFields() throws {
        let fix = try FixValidator.makeFix(from: completeDraft(), author: "ann", at: created)
        let patch = FixDraft(title: "  New title ", description: .some(nil), platforms: ["android"], wcag: ["2.4.3"])
        let patched = try FixValidator.applyPatch(patch, to: fix, at: later)
        #expect(patched.title == "New title")
        #expect(patched.description == nil)
        #expect(patched.platforms == [.android])
        #expect(patched.wcag == ["2.4.3"])
        #expect(patched.uiArea == fix.uiArea)
        #expect(patched.expectedAnnouncement == fix.expectedAnnouncement)
        #expect(patched.key == fix.key)
        #expect(patched.revision == fix.revision)
        #expect(patched.updatedAt == later)
        #expect(patched.createdAt == created)
    }

    @Test func patchThatChangesNothingKeepsUpdatedAt() throws {
        let fix = try FixValidator.makeFix(from: completeDraft(), author: "ann", at: created)
        let patched = try FixValidator.applyPatch(FixDraft(title: " Label channel logos "), to: fix, at: later)
        #expect(patched == fix)
        #expect(patched.updatedAt == created)
    }

    @Test func patchValidatesGivenFields() throws {
        let fix = try FixValidator.makeFix(from: completeDraft(), author: "ann", at: created)
        let failure = try #require(throws: ValidationFailure.self) {
            try FixValidator.applyPatch(FixDraft(platforms: ["ios", "symbian"], wcag: ["1.1.1", "7.7.7"]), to: fix, at: later)
        }
        #expect(fieldNames(failure) == ["platforms[1]", "wcag[1]"])
    }

    @Test func aFixIsWrittenInTheLanguageItsAuthorNamesOrTheDefault() throws {
        let languages = FixValidator.Languages(allowed: ["en", "ja"], fallback: "ja")
        #expect(try FixValidator.makeFix(from: completeDraft(), author: "ann", at: created, languages: languages).language == "ja")
        var draft = completeDraft()
        draft.language = "en"
        let fix = try FixValidator.makeFix(from: draft, author: "ann", at: created, languages: languages)
        #expect(fix.language == "en")
        let changed = try FixValidator.applyPatch(FixDraft(language: "ja"), to: fix, at: later, languages: languages)
        #expect(changed.language == "ja")
        #expect(changed.updatedAt == later)
        #expect(try FixValidator.applyPatch(FixDraft(title: "Other"), to: fix, at: later, languages: languages).language == "en", "kept when not sent")
    }

    @Test func aLanguageTheConsoleDoesNotSpeakIsRefusedByName() throws {
        let languages = FixValidator.Languages(allowed: ["en", "ja"], fallback: "en")
        var draft = completeDraft()
        draft.language = "fr"
        let failure = try #require(throws: ValidationFailure.self) {
            try FixValidator.makeFix(from: draft, author: "ann", at: created, languages: languages)
        }
        #expect(failure.errors == [FieldError(field: "language", message: "'fr' is not one of the console's languages; allowed: en, ja")])
        let fix = try FixValidator.makeFix(from: completeDraft(), author: "ann", at: created, languages: languages)
        #expect(throws: ValidationFailure.self) { try FixValidator.applyPatch(FixDraft(language: "JA"), to: fix, at: later, languages: languages) }
    }
}
