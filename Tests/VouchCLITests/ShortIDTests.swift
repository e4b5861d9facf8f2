import Testing
@testable import VouchCLI
import VouchDomain

/// Generated ids said short where a person only recognises them; anything else said whole.
@Suite struct ShortIDTests {
    @Test(arguments: [
        ("fb_d96c8cyh49todomw", "ending 9todomw"),
        ("t_7xerzhc30sjq", "ending hc30sjq"),
        ("dlv_4w9tedpdf8fce6h6_abcdefghijklmnop", "ending jklmnop"),
        // Not generated ids: a fix key, a targeting key, the audit's stand-in for a withdrawn tester, a short test id.
        ("tv-channel-selector-labels", "tv-channel-selector-labels"), ("user-1", "user-1"), ("withdrawn", "withdrawn"), ("fb_1", "fb_1"),
    ])
    func short(_ id: String, _ expected: String) {
        #expect(ShortID.say(id) == expected)
    }

    @Test func principals() {
        #expect(ShortID.principal("t_7xerzhc30sjq") == "tester ending hc30sjq")
        #expect(ShortID.principal("rita") == "rita")
        #expect(ShortID.principal("admin") == "admin")
    }
}
