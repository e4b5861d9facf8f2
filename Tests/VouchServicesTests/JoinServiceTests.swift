import Foundation
import Testing
import VouchDomain
import VouchServices
import VouchStore

/// Joining through an invitation, underneath the pages: the consent texts, the answers each step accepts, the draft
/// that runs out within the hour, and joining that records her own consent.
struct JoinServiceTests {
    @Test func theBuiltInTextsExistInEveryLanguageWithTheOperatorFilledIn() throws {
        let library = try ConsentTextLibrary.builtIn(languages: ["en", "ja"])
        let programmeOperator = ProgrammeOperator(name: "Example Media Ltd", contact: "privacy@example.com")
        for language in ["en", "ja"] {
            let text = library.current(language: language, for: programmeOperator)
            #expect(text.body.contains("Example Media Ltd") && text.body.contains("privacy@example.com"))
            #expect(!text.body.contains("{operator."))
            #expect(text.blocks.filter { if case .heading = $0 { true } else { false } }.count >= 5, "who, what, why, how long, how to withdraw")
        }
    }

    @Test func anOperatorsDirectoryReplacesThemAndItsNewestVersionIsShown() throws {
        let directory = NSTemporaryDirectory() + "vouch-consent-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (name, words) in [("2026-9.en.txt", "Old."), ("2026-10.en.txt", "New, by {operator.name}."), ("2026-10.ja.txt", "新しい。")] {
            try words.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
        }
        let library = try ConsentTextLibrary.load(directory: directory, languages: ["en", "ja"])
        #expect(library.currentVersion == "2026-10", "versions compare as numbers: 10 is newer than 9")
        #expect(library.current(language: "en", for: ProgrammeOperator(name: "Example", contact: "x")).body == "New, by Example.")
        #expect(library.text(version: "2026-9", language: "ja", for: ProgrammeOperator(name: "", contact: "")) == nil)

        try "Newest.".write(toFile: directory + "/2026-11.en.txt", atomically: true, encoding: .utf8)
        #expect { try ConsentTextLibrary.load(directory: directory, languages: ["en", "ja"]) } throws: { error in
            "\(error)".contains("version 2026-11, is missing in ja: add 2026-11.ja.txt")
        }
        try "Bad.".write(toFile: directory + "/consent.txt", atomically: true, encoding: .utf8)
        #expect { try ConsentTextLibrary.load(directory: directory, languages: ["en", "ja"]) } throws: { error in
            "\(error)".contains("consent.txt: a consent text's file is named VERSION.LANGUAGE.txt")
        }
        #expect(throws: ConsentTextLibrary.Problem.self) { try ConsentTextLibrary.load(directory: directory + "/none", languages: ["en"]) }
    }

    @Test func eachStepNamesWhatIsWrongWithItsAnswer() throws {
        let world = try ServiceWorld()
        let joining = world.services.joining
        #expect(joining.issues(.name, JoinAnswers(name: "  ")) == [JoinIssue("name", .missing)])
        #expect(joining.issues(.name, JoinAnswers(name: "Aiko\nSato")) == [JoinIssue("name", .lineBreaks)])
        #expect(joining.issues(.name, JoinAnswers(name: String(repeating: "あ", count: 201))) == [JoinIssue("name", .tooLong(limit: 200))])
        #expect(joining.issues(.email, JoinAnswers(email: "")).isEmpty, "an email is optional")
        for bad in ["aiko", "aiko@", "@example.com", "aiko@example", "ai ko@example.com", "あい@example.com", "aiko@example..com"] {
            #expect(joining.issues(.email, JoinAnswers(email: bad)) == [JoinIssue("email", .notAnEmail)], "\(bad)")
        }
        #expect(joining.issues(.email, JoinAnswers(email: "aiko.sato+vouch@example.co.jp")).isEmpty)
        #expect(joining.issues(.technologies, JoinAnswers(technologies: [JoinAnswers.Technology()])) == [JoinIssue("assistive_tech[0].name", .missing)])
        #expect(joining.issues(.technologies, JoinAnswers(technologies: [JoinAnswers.Technology(), JoinAnswers.Technology(name: "jaws", platform: "mainframe")]))
                    == [JoinIssue("assistive_tech[1].platform", .unknownChoice)])
        #expect(joining.issues(.technologies, JoinAnswers(technologies: [JoinAnswers.Technology(name: "talkback", platform: "android", browser: "chrome")]))
                    == [JoinIssue("assistive_tech[0].browser", .browserOffTheWeb)])
        #expect(joining.issues(.testerCode, JoinAnswers(testerCode: "")) == [JoinIssue("tester_code", .missing)])
        #expect(joining.issues(.language, JoinAnswers(language: "fr")) == [JoinIssue("language", .unknownChoice)])
    }
}
