import Testing
import VouchMail

struct MailAddressTests {
    @Test(arguments: ["aiko@example.jp", "first.last+vouch@mail.example.org", "x@localhost", "o'brien@example.ie"])
    func plainAddressesAreAccepted(address: String) throws {
        #expect(try MailAddress(address, for: .to).address == address)
    }

    @Test(arguments: [
        "victim@example.org>\r\nRCPT TO:<other@example.org", "a@example.org\nBcc: b@example.org", "no-at-sign", "two@@example.org",
        "a@b@example.org", ".lead@example.org", "double..dot@example.org", "space in@example.org", "<a@example.org>", "a@-example.org",
        "a@example..org", "\"quoted\"@example.org", "愛子@example.jp", "a@例え.jp", "a@[127.0.0.1]", "@example.org", "a@",
    ])
    func malformedAddressesAreRefusedWithoutRepeatingThem(address: String) {
        #expect { try MailAddress(address, for: .to) } throws: { error in
            let error = error as? MailError
            return error?.field == .to && error.map { !$0.description.contains(address) } == true
        }
    }

    @Test(arguments: ["Aiko\r\nBcc: b@example.org", "Aiko\nX: 1", "Ai\u{7}ko"])
    func displayNamesWithLineBreaksOrControlsAreRefused(name: String) {
        #expect(throws: MailError.self) { try MailAddress("a@example.org", displayName: name, for: .from) }
    }

    @Test func anEmptyDisplayNameIsNone() throws {
        #expect(try MailAddress("a@example.org", displayName: "", for: .from).displayName == nil)
    }
}
