import Testing
@testable import vouch_embed

/// The console's catalogs are read when the build runs: what they accept, and how a difference between
/// languages stops the build with every difference named.
struct MessageCatalogTests {
    @Test func linesAreKeysAndTextsWithCommentsAndBlankLinesSkipped() throws {
        let catalog = try MessageCatalog(language: "en", text: "# words\n\nhome.title = Your fixes\n  fix.thenTell =  About {count} pages = short  \n")
        #expect(catalog.entries.map(\.key) == ["home.title", "fix.thenTell"])
        #expect(catalog.entries.map(\.text) == ["Your fixes", "About {count} pages = short"])
        #expect(catalog.entries.map(\.line) == [3, 4])
    }

    @Test(arguments: [
        ("home.title=Your fixes", "Catalogs/en.txt:1: a message is 'key = text', with a space on each side of '='"),
        ("Home.title = x", "Catalogs/en.txt:1: 'Home.title' is not a key: dotted words of a-z, A-Z and 0-9, each starting with a letter, the first lowercase"),
        ("home..title = x", "Catalogs/en.txt:1: 'home..title' is not a key: dotted words of a-z, A-Z and 0-9, each starting with a letter, the first lowercase"),
        ("home.1st = x", "Catalogs/en.txt:1: 'home.1st' is not a key: dotted words of a-z, A-Z and 0-9, each starting with a letter, the first lowercase"),
        ("a = x\n\na = y", "Catalogs/en.txt:3: 'a' is already on line 1"),
    ])
    func badLinesAreRefusedWithTheirPlace(text: String, message: String) {
        #expect { try MessageCatalog(language: "en", text: text) } throws: { "\($0)" == message }
    }

    @Test func keysBecomeCamelCaseSwiftNames() {
        #expect(MessageCatalog.swiftName("home.title") == "homeTitle")
        #expect(MessageCatalog.swiftName("myData.reportsOne") == "myDataReportsOne")
        #expect(MessageCatalog.placeholders("{count} of {total}, {count}") == ["count", "total"])
    }

    @Test func aKeyMissingOrExtraOrWithOtherPlaceholdersStopsTheBuildNamingEach() throws {
        let english = try MessageCatalog(language: "en", text: "a.one = One\nb.two = {count} testers\nc.three = Three")
        let japanese = try MessageCatalog(language: "ja", text: "b.two = {number}人\nc.three = 三\nd.four = 四")
        #expect { try MessageCatalog.source([english, japanese]) } throws: { error in
            "\(error)" == """
                Catalogs/ja.txt has no 'a.one' (Catalogs/en.txt:1)
                Catalogs/ja.txt: 'b.two' has placeholders ["number"], Catalogs/en.txt ["count"]
                Catalogs/ja.txt:3: 'd.four' is in no other catalog (Catalogs/en.txt)
                """
        }
    }

    @Test func twoKeysWithOneSwiftNameAreRefused() throws {
        let english = try MessageCatalog(language: "en", text: "home.title = x\nhomeTitle = y")
        #expect { try MessageCatalog.source([english]) } throws: { "\($0)" == "'home.title' and 'homeTitle' are both homeTitle in Swift; rename one" }
    }

    @Test func agreeingCatalogsBecomeOneEnumAndATextPerLanguage() throws {
        let english = try MessageCatalog(language: "en", text: "home.title = Your fixes\nhome.count = {count} fixes")
        let japanese = try MessageCatalog(language: "ja", text: "home.count = {count}件\nhome.title = 試す修正")
        let source = try MessageCatalog.source([english, japanese])
        #expect(source.contains("    case homeTitle = \"home.title\"\n    case homeCount = \"home.count\"\n"))
        #expect(source.contains("    var ja: String {\n        switch self {\n        case .homeTitle:\n            #\"\"\"\n試す修正\n\"\"\"#\n"))
        #expect(source.contains("    var en: String {"))
    }
}
