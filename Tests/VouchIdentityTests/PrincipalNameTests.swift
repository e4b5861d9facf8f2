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

    @Test func legacyNamesDropHiddenCharactersSoTheyMeetTheirPlainSpelling() {
        #expect(PrincipalName.legacy("Rita\u{AD}").value == "rita")
        #expect(PrincipalName.legacy("tok-release_manager\u{FEFF}").skeleton == PrincipalName.legacy("tok-release_manager").skeleton)
    }
}
