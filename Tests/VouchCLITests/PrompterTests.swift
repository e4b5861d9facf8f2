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

    @Test(arguments: [("2", "failed"), (" 3 ", "cant_tell"), ("FAILED", "failed"), ("cant tell", "cant_tell"), ("can't-tell", "cant_tell"),
                      ("0", nil), ("4", nil), ("", nil), ("pass", nil)] as [(String, String?)])
    func choice(_ answer: String, _ expected: String?) {
        #expect(Prompter.choice(answer.trimmingCharacters(in: .whitespaces), among: ["passed", "failed", "cant_tell"]) == expected)
    }

    @Test func asksAgainUntilAnAnswerFits() throws {
        let conversation = Conversation(["7", "2"])
        let prompter = Prompter(console: conversation.console, whenInputEnds: "nothing was sent")
        #expect(try prompter.choose("Platform", among: ["ios", "android", "web"]) == "android")
        #expect(conversation.text == """
            Platform? 1 ios, 2 android, 3 web: '7' is not one of the choices. Answer with a number from 1 to 3, or with a name: ios, android, web.
            Platform? 1 ios, 2 android, 3 web: 
            """)
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
