import Foundation
import Testing
@testable import VouchCLI

/// The prompter in-process, with typed answers from a list and the conversation collected as text.
@Suite struct PrompterTests {
    final class Conversation {
        var answers: [String]
        var text = ""

        init(_ answers: [String]) { self.answers = answers }

        var console: Console {
            Console(write: { _, text in self.text += text },
                    readLine: { self.answers.isEmpty ? nil : self.answers.removeFirst() },
                    isInteractive: true)
        }
    }

    static let verdicts = [Prompter.Choice(value: "passed", words: "passed"), Prompter.Choice(value: "failed", words: "failed"),
                           Prompter.Choice(value: "cant_tell", words: "can't tell")]

    // By number, by the words offered (apostrophe or not), or by the API's name, in any case and with '-', '_' or spaces.
    @Test(arguments: [("2", "failed"), (" 3 ", "cant_tell"), ("FAILED", "failed"), ("cant tell", "cant_tell"), ("can't-tell", "cant_tell"),
                      ("Can\u{2019}t tell", "cant_tell"), ("cant_tell", "cant_tell"), ("0", nil), ("4", nil), ("", nil), ("pass", nil)] as [(String, String?)])
    func choice(_ answer: String, _ expected: String?) {
        #expect(Prompter.choice(answer.trimmingCharacters(in: .whitespaces), among: Self.verdicts) == expected)
    }

    @Test func wordsOfALongerChoiceAndChoicesNotOffered() {
        let outcomes = [Prompter.Choice(value: "completed_with_workaround", words: "completed with a workaround")]
        #expect(Prompter.choice("Completed with a workaround", among: outcomes) == "completed_with_workaround")
        #expect(Prompter.choice("completed-with-workaround", among: outcomes) == "completed_with_workaround")
        let nvda = Prompter.Choice(value: "nvda", words: "NVDA")
        #expect(Prompter.choice("nvda", among: outcomes) == nil)
        #expect(Prompter.choice("NVDA", among: outcomes, alsoAccepted: [nvda]) == "nvda")
        // A number only picks among the choices offered.
        #expect(Prompter.choice("2", among: outcomes, alsoAccepted: [nvda]) == nil)
    }

    @Test func asksAgainUntilAnAnswerFits() throws {
        let conversation = Conversation(["7", "2"])
        let prompter = Prompter(console: conversation.console, whenInputEnds: "nothing was sent")
        let platforms = [("ios", "iOS"), ("android", "Android"), ("web", "web")].map { Prompter.Choice(value: $0.0, words: $0.1) }
        #expect(try prompter.choose("Platform", among: platforms) == "android")
        #expect(conversation.text == """
            Platform? 1 iOS, 2 Android, 3 web: '7' is not one of the choices. Answer with a number from 1 to 3, or in words: iOS, Android, web.
            Platform? 1 iOS, 2 Android, 3 web: 
            """)
    }

    @Test func groupsAreSaidOneLineEach() throws {
        let conversation = Conversation(["3"])
        let prompter = Prompter(console: conversation.console, whenInputEnds: "nothing was sent")
        let choices = ["a", "b", "c"].map { Prompter.Choice(value: $0, words: $0.uppercased()) }
        #expect(try prompter.choose("Letter", among: choices, groups: [("First", 2), ("Last", 1)]) == "c")
        #expect(conversation.text == "Letter:\nFirst: 1 A, 2 B\nLast: 3 C\nLetter? A number from 1 to 3: ")
    }

    @Test func optionalTextIsSkippedWithEnter() throws {
        let conversation = Conversation([""])
        let prompter = Prompter(console: conversation.console, whenInputEnds: "nothing was sent")
        #expect(try prompter.text("Comment (optional, press Enter to skip):", limit: 10, required: false) == nil)
        let long = Conversation([String(repeating: "x", count: 11), "short"])
        #expect(try Prompter(console: long.console, whenInputEnds: "").text("Q:", limit: 10, required: true) == "short")
        #expect(long.text == "Q: That answer has 11 characters; give at most 10.\nQ: ")
    }

    @Test func endOfInputStopsTheQuestions() {
        let conversation = Conversation([])
        let prompter = Prompter(console: conversation.console, whenInputEnds: "nothing was sent")
        #expect {
            try prompter.confirm("Send this feedback? (yes/no):")
        } throws: { error in
            (error as? CommandFailure)?.message == "The input ended before the question was answered; nothing was sent."
        }
        #expect(conversation.text == "Send this feedback? (yes/no): \n")
    }
}
