import Testing
import VouchDomain
import VouchIdentity

/// One person must not pass for two by spelling: case, compatibility forms, hidden characters and look-alike letters.
struct PrincipalNameTests {
    func name(_ text: String) throws -> PrincipalName { try PrincipalName(text, field: "principal") }

    @Test(arguments: ["Rita", "RITA", "ｒｉｔａ", "Ｒｉｔａ", " rita "])
    func caseAndCompatibilityFormsAreOneName(spelling: String) throws {
        #expect(try name(spelling).value == "rita")
    }

    @Test func canonicallyEquivalentFormsAreOneName() throws {
        #expect(try name("Zoe\u{308}").value == (try name("Zoë")).value)
        #expect(try name("Straße").value == (try name("STRASSE")).value)
    }

    /// Soft hyphen, zero-width space and joiner, word joiner, byte order mark, left-to-right mark, a control character.
    @Test(arguments: ["\u{AD}", "\u{200B}", "\u{200D}", "\u{2060}", "\u{FEFF}", "\u{200E}", "\u{7}", "\u{180E}", "\u{2028}"])
    func hiddenCharactersAreRefused(hidden: String) throws {
        #expect(throws: FieldError.self) { try name("tok-release" + hidden + "_manager") }
        let error = #expect(throws: FieldError.self) { try name("rita" + hidden) }
        #expect(error?.field == "principal")
        #expect(error?.message.contains("U+") == true)
    }

    /// Cyrillic, Greek and fullwidth look-alikes, and letter pairs that read as one letter, share the Latin skeleton.
    @Test(arguments: [("rita", "rіta"), ("release_manager", "rеlеаsе_mаnаgеr"), ("paypal", "pаypаl"), ("admin", "аdmin"),
                      ("ops", "οps"), ("m", "rn"), ("l", "1"), ("tok-release_manager", "tok-release_rnanager")])
    func lookAlikesShareASkeleton(plain: String, confusable: String) throws {
        let first = try name(plain), second = try name(confusable)
        #expect(first.skeleton == second.skeleton, "\(plain) and \(confusable) should look alike")
    }

    @Test func differentNamesKeepDifferentSkeletons() throws {
        #expect(try name("rita").skeleton != (try name("sam")).skeleton)
        #expect(try name("ci-bot").skeleton != (try name("ci-bots")).skeleton)
    }

    @Test func emptyAndOverlongNamesAreRefused() throws {
        #expect(throws: FieldError.self) { try name("   ") }
        #expect(throws: FieldError.self) { try name(String(repeating: "a", count: 101)) }
        #expect(try name(String(repeating: "a", count: 100)).value.count == 100)
    }

    @Test func reservedNames() throws {
        #expect(try name("vouchd").isReserved)
        #expect(try name("Withdrawn").isReserved)
        #expect(try name("t_abc").isReserved)
        #expect(!(try name("rita").isReserved))
    }

    /// Characters that show as nothing or as a blank, though Unicode calls them neither whitespace nor
    /// default-ignorable (or calls them whitespace other than the space), and the rest of their class.
    @Test(arguments: ["\u{2800}", "\u{115F}", "\u{1160}", "\u{3164}", "\u{FFA0}", "\u{180E}", "\u{1D159}",
                      "\u{A0}", "\u{1680}", "\u{2000}", "\u{2001}", "\u{2002}", "\u{2003}", "\u{2004}", "\u{2005}", "\u{2006}", "\u{2007}",
                      "\u{2008}", "\u{2009}", "\u{200A}", "\u{202F}", "\u{205F}", "\u{3000}", "\u{85}", "\u{9}", "\u{B}", "\u{C}",
                      "\u{2028}", "\u{2029}", "\u{2061}", "\u{2062}", "\u{2063}", "\u{2064}", "\u{34F}", "\u{17B4}", "\u{17B5}", "\u{E0001}",
                      "\u{E0041}", "\u{FE0F}", "\u{E000}", "\u{F0000}", "\u{378}", "\u{1D173}", "\u{61C}", "\u{FFF9}"])
    func blankLookingCharactersAreRefusedWhereverTheyStand(blank: String) throws {
        for text in ["tok-maintainer" + blank, blank + "rita", "ri" + blank + "ta", "rita " + blank, blank] {
            let error = #expect(throws: FieldError.self, "\(text.unicodeScalars.map { String($0.value, radix: 16) })") { try name(text) }
            #expect(error?.field == "principal")
            #expect(error?.message.contains("U+") == true, "names the character: \(error?.message ?? "")")
            #expect(error?.message.contains("a name may hold letters, digits, punctuation, symbols and single spaces") == true)
        }
    }

    @Test func theBrailleBlankIsNamedInTheError() {
        let error = #expect(throws: FieldError.self) { try name("tok-maintainer\u{2800}") }
        #expect(error?.message.hasPrefix("contains U+2800 BRAILLE PATTERN BLANK, a character that shows as a blank;") == true, "\(error?.message ?? "")")
    }

    /// A combining mark draws on the letter before it; with none, it shows as a lone accent, a dotted circle or nothing.
    @Test(arguments: ["\u{301}rita", "\u{307}", "rita \u{308}", "\u{20DD}", "\u{93E}ab"])
    func aCombiningMarkWithNoLetterBeforeItIsRefused(text: String) {
        let error = #expect(throws: FieldError.self) { try name(text) }
        #expect(error?.message.contains("a combining mark with no letter before it") == true, "\(error?.message ?? "")")
    }

    @Test(arguments: [("rita  smith", "rita smith"), ("  rita   smith  ", "rita smith"), ("a  b   c", "a b c"), ("Rita Smith", "rita smith")])
    func runsOfSpacesAreOneSpace(spelling: String, stored: String) throws {
        #expect(try name(spelling).value == stored)
    }

    /// Names that differ only in a mark that is all but invisible, or in a letter that reads the same in capitals,
    /// look alike: `İ` case-folds to `i` and a combining dot above, which most fonts draw as the `i`'s own dot.
    @Test(arguments: [("tok-maintainer", "tok-maintaİner"), ("tok-maintainer", "tok-mainta\u{0069}\u{0307}ner"), ("rita", "rit\u{0061}\u{0323}"),
                      ("rita", "rita\u{0301}\u{0301}"), ("zoe", "zoë"), ("rene", "René"), ("t_abc", "τ_abc"), ("tom", "тom"), ("tom", "ţom"),
                      ("rita smith", "rita  smith"), ("jan", "jaǹ"), ("ops", "ȯps")])
    func nearInvisibleDifferencesLookAlike(plain: String, variant: String) throws {
        let first = try name(plain), second = try name(variant)
        #expect(first.looksLike(second), "\(plain) and \(variant) should look alike: \(first.skeleton)/\(first.capitalSkeleton) against \(second.skeleton)/\(second.capitalSkeleton)")
    }

    @Test(arguments: [("rita", "rlta"), ("ali", "all"), ("tom", "tim"), ("rita", "ritas"), ("rita smith", "ritasmith"), ("ci-bot", "ci-bots"), ("sam", "pam")])
    func namesThatReadDifferentlyDoNotLookAlike(first: String, second: String) throws {
        #expect(!(try name(first)).looksLike(try name(second)))
    }

    /// Look-alikes of the reserved names with Cyrillic or Greek letters, and of the tester prefix.
    @Test(arguments: [("vоuchd", "vouchd"), ("wіthdrawn", "withdrawn"), ("sуstem", "system"), ("ANONYMOUS", "anonymous"), ("vouchd\u{307}", "vouchd"),
                      ("v o u c h d", nil), ("τ_abc", "t_…"), ("Τ_ABC", "t_…"), ("т_abc", "t_…"), ("t＿abc", "t_…"), ("ṭ_abc", "t_…"), ("T_1", "t_…")]
                     as [(String, String?)])
    func reservedNamesAndTheTesterPrefixAreComparedByLook(text: String, reserved: String?) throws {
        #expect(try name(text).reservedLookAlike == reserved, "\(text)")
    }

    @Test(arguments: ["rita", "tester", "tim_x", "vouch", "systems-bot", "t-abc"])
    func ordinaryNamesAreNotReserved(text: String) throws {
        #expect(try name(text).reservedLookAlike == nil)
    }

    @Test func storedNamesAreComparedByTodaysRule() {
        // A name stored before marks were ignored still meets its plain spelling.
        #expect(PrincipalName(stored: "tok-mainta\u{0069}\u{0307}ner").looksLike(PrincipalName(stored: "tok-maintainer")))
        #expect(PrincipalName(stored: "rita  smith").looksLike(PrincipalName(stored: "rita smith")))
        #expect(PrincipalName.legacy("rita\u{2800}").value == "rita")
    }

    @Test func legacyNamesDropHiddenCharactersSoTheyMeetTheirPlainSpelling() {
        #expect(PrincipalName.legacy("Rita\u{AD}").value == "rita")
        #expect(PrincipalName.legacy("tok-release_manager\u{FEFF}").skeleton == PrincipalName.legacy("tok-release_manager").skeleton)
    }
}
