import Foundation
import Testing
@testable import VouchConsoleKit

/// Messages by key, placeholders by name, and numbers, dates and counts as each language writes them.
struct MessagesTests {
    static let date = Date(timeIntervalSince1970: 1_796_392_980)  // 2026-12-04 14:03 UTC

    @Test func placeholdersAreFilledByNameInEitherLanguagesOrder() {
        let values = ["technology": "VoiceOver", "platform": "iOS", "version": "18.2"]
        #expect(Messages(.en)(.myDataTechnologyOnVersion, values) == "VoiceOver on iOS, version 18.2")
        #expect(Messages(.ja)(.myDataTechnologyOnVersion, values) == "iOS の VoiceOver、バージョン 18.2")
    }

    @Test func markupMessagesEscapeTheirTextAndKeepTheMarkupGiven() {
        let html = Messages(.en).html(.linkForName, ["name": "<strong>A &amp; B</strong>"])
        #expect(html.markup.hasPrefix("This link is for <strong>A &amp; B</strong>, who tests"))
        let text = Messages(.en)(.linkContinueAs, ["name": "<b>"])
        #expect(text == "Continue as <b>", "plain text is escaped where it is put into a page, not here")
    }

    @Test func datesAndTimesFollowTheLanguage() {
        #expect(Messages(.ja).time(Self.date) == "2026年12月4日 14:03 UTC")
        #expect(Messages(.en).time(Self.date) == "4 December 2026, 14:03 UTC")
        #expect(Messages(.ja).timeElement(Self.date).markup == "<time datetime=\"2026-12-04T14:03:00Z\">2026年12月4日 14:03 UTC</time>")
    }

    @Test(arguments: [(0, "0"), (7, "7"), (999, "999"), (1_000, "1,000"), (1_234_567, "1,234,567"), (-12_345, "-12,345")])
    func numbersAreGroupedByThousands(value: Int, written: String) {
        for language in Language.allCases { #expect(Messages(language).number(value) == written) }
    }

    @Test func countsTakeTheSingularOnlyWhereTheLanguageHasOne() {
        let english = Messages(.en), japanese = Messages(.ja)
        #expect(english.count(1, one: .myDataReportsOne, other: .myDataReportsOther) == "1 report")
        #expect(english.count(2, one: .myDataReportsOne, other: .myDataReportsOther) == "2 reports")
        #expect(english.count(1_200, one: .myDataReportsOne, other: .myDataReportsOther) == "1,200 reports")
        #expect(japanese.count(1, one: .myDataReportsOne, other: .myDataReportsOther) == "1 件")
        #expect(japanese.count(2, one: .myDataReportsOne, other: .myDataReportsOther) == "2 件")
        #expect(japanese.list(["iOS", "Android"]) == "iOS、Android")
        #expect(english.list(["iOS", "Android"]) == "iOS, Android")
    }

    @Test func storedValuesHaveWordsInEachLanguage() {
        #expect(Messages(.ja).verdict(.passed) == "はい、うまく動きます")
        #expect(Messages(.ja).state(.testing) == "テスト中")
        #expect(Messages(.ja).technology(.brailleDisplay) == "点字ディスプレイ")
        #expect(Messages(.ja).technology(.voiceover) == "VoiceOver", "a product's name is its maker's in every language")
        #expect(Words.verdict(.cantTell) == "I can't tell", "the English words come from the English catalog")
        #expect(Words.state(.rolledBack) == "Rolled back")
    }

    @Test func anAuthorsTextIsMarkedWithItsLanguageOnlyWhereThePageSpeaksAnother() {
        #expect(Messages(.en).authored("テレビ <番組>", language: "ja").markup == "<span lang=\"ja\">テレビ &lt;番組&gt;</span>")
        #expect(Messages(.ja).authored("テレビ", language: "ja").markup == "テレビ")
        #expect(Messages(.ja).authored("TV guide", language: nil).markup == "TV guide", "a language not recorded is not guessed")
    }

    @Test(arguments: [(90, "1 分", "1 minute"), (3_600, "1 時間", "1 hour"), (5_400, "1 時間 30 分", "1 hour 30 minutes"),
                      (172_800, "2 日", "2 days"), (7 * 86_400 + 3 * 3_600, "7 日 3 時間", "7 days 3 hours")])
    func lengthsOfTimeUseTheLanguagesUnits(seconds: Int, japanese: String, english: String) {
        #expect(Messages(.ja).duration(seconds) == japanese)
        #expect(Messages(.en).duration(seconds) == english, "the evaluator's words, as vouch status says them")
    }
}
