import Testing
@testable import VouchCLI

@Suite struct SuggestionTests {
    @Test(arguments: [("titel", "title", 1), ("title", "title", 0), ("fxi", "fix", 1), ("", "abc", 3), ("kitten", "sitting", 3)])
    func distance(_ first: String, _ second: String, _ expected: Int) {
        #expect(Suggestion.distance(first, second) == expected)
    }

    @Test(arguments: [
        ("--titel", ["--title", "--ui-area"], "--title"),
        ("--platfrom", ["--platform", "--wcag"], "--platform"),
        ("--exp", ["--expected-announcement", "--expected"], "--expected-announcement"),
        ("fxi", ["fix", "token", "audit", "eval"], "fix"),
        ("tokens", ["fix", "token", "audit", "eval"], "token"),
    ])
    func closest(_ input: String, _ candidates: [String], _ expected: String) {
        #expect(Suggestion.closest(to: input, among: candidates) == expected)
    }

    @Test func farWordsGetNoSuggestion() {
        #expect(Suggestion.closest(to: "deploy", among: ["fix", "token", "audit", "eval"]) == nil)
        #expect(Suggestion.closest(to: "--zzz", among: ["--title", "--ui-area"]) == nil)
    }
}
