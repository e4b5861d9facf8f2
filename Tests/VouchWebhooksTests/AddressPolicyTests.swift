import Testing
@testable import VouchWebhooks

struct AddressPolicyTests {
    @Test(arguments: ["127.0.0.1", "127.8.9.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.10", "169.254.169.254", "100.64.0.1",
                      "0.0.0.0", "::1", "::", "fd12::1", "fe80::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1"])
    func privateAddressesAreRecognised(address: String) {
        #expect(AddressPolicy.isPrivate(address))
    }

    @Test(arguments: ["8.8.8.8", "172.32.0.1", "192.169.0.1", "100.128.0.1", "2001:db8::1", "1.1.1.1"])
    func publicAddressesAreNot(address: String) {
        #expect(!AddressPolicy.isPrivate(address))
    }

    @Test func loopbackIsRefusedUnlessAllowed() throws {
        #expect(throws: AddressPolicy.Refusal.self) { try AddressPolicy(allowPrivateNetworks: false).resolve("http://127.0.0.1:9000/hook") }
        #expect(throws: AddressPolicy.Refusal.self) { try AddressPolicy(allowPrivateNetworks: false).resolve("http://localhost:9000/hook") }
        let target = try AddressPolicy(allowPrivateNetworks: true).resolve("http://127.0.0.1:9000/hook")
        #expect(target.pin == "127.0.0.1:9000:127.0.0.1")
    }

    @Test(arguments: ["ftp://example.org/", "http:///nohost", "not a url", "http://user:pass@example.org/"])
    func badFormsAreNamed(url: String) {
        #expect(AddressPolicy.checkForm(url) != nil)
    }
}
