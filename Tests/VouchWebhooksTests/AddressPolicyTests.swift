import Testing
@testable import VouchWebhooks

struct AddressPolicyTests {
    /// getaddrinfo on a resolver of the tests' own: `localhost` comes from /etc/hosts, the rest are address literals.
    static let systemResolver = HostResolver()

    static func policy(allowPrivateNetworks: Bool) -> AddressPolicy {
        AddressPolicy(allowPrivateNetworks: allowPrivateNetworks, resolver: systemResolver, timeout: .seconds(10))
    }

    @Test(arguments: [
        // IPv4: loopback, private, CGNAT, link-local, "this network", protocol assignments, documentation, 6to4 relay,
        // benchmarking, multicast, reserved, broadcast.
        "127.0.0.1", "127.8.9.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.10", "169.254.169.254", "100.64.0.1",
        "100.127.255.254", "0.0.0.0", "0.1.2.3", "192.0.0.8", "192.0.2.1", "198.51.100.7", "203.0.113.9", "192.88.99.1", "198.18.0.1",
        "198.19.255.255", "224.0.0.1", "239.255.255.250", "240.0.0.1", "255.255.255.255",
        // IPv6: loopback, unspecified, unique-local, link-local, site-local, multicast, discard, documentation, benchmarking, ORCHID.
        "::1", "::", "fd12::1", "fc00::1", "fe80::1", "febf::1", "fec0::1", "feff::1", "ff02::1", "ff0e::1", "100::1", "2001:db8::1",
        "2001:db8:ffff::1", "3fff::1", "2001:2::1", "2001:10::1", "5f00::1", "4000::1",
        // IPv4 inside IPv6: mapped, translated (RFC 2765), compatible, NAT64, local-use NAT64, 6to4, Teredo.
        "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:0:127.0.0.1", "::ffff:0:7f00:1", "::ffff:0:a9fe:a9fe", "::ffff:0:0", "::127.0.0.1",
        "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", "64:ff9b:1::808:808", "64:ff9b:1:2::1", "2002:7f00:1::1", "2002:c0a8:101::1",
        "2001:0:4136:e378:8000:63bf:80ff:fffe", "2001:0:a00:1::1",
        // Not an address at all.
        "localhost", "", "1.2.3", "::ffff:1.2.3",
    ])
    func privateAddressesAreRecognised(address: String) {
        #expect(AddressPolicy.isPrivate(address))
    }

    @Test(arguments: ["8.8.8.8", "1.1.1.1", "93.184.215.14", "172.32.0.1", "192.169.0.1", "100.128.0.1", "192.0.3.1", "198.51.101.1",
                      "2606:4700::1111", "2a00:1450:4001::200e", "2001:4860:4860::8888", "::ffff:8.8.8.8", "::ffff:0:8.8.8.8",
                      "64:ff9b::808:808", "2002:808:808::1", "2001:0:4136:e378:8000:63bf:f7f7:f7f7"])
    func publicAddressesAreNot(address: String) {
        #expect(!AddressPolicy.isPrivate(address))
    }

    @Test func loopbackIsRefusedUnlessAllowed() throws {
        #expect(throws: AddressPolicy.Refusal.self) { try Self.policy(allowPrivateNetworks: false).resolve("http://127.0.0.1:9000/hook") }
        #expect(throws: AddressPolicy.Refusal.self) { try Self.policy(allowPrivateNetworks: false).resolve("http://localhost:9000/hook") }
        let target = try Self.policy(allowPrivateNetworks: true).resolve("http://127.0.0.1:9000/hook")
        #expect(target.address == "127.0.0.1")
        #expect(target.pin == nil, "an address literal needs no pin: curl connects to it without a lookup")
    }

    @Test func anIPv6LiteralIsCheckedAndNotPinned() throws {
        let refusal = try #require(throws: AddressPolicy.Refusal.self) {
            try Self.policy(allowPrivateNetworks: false).resolve("http://[::ffff:0:127.0.0.1]:8080/")
        }
        #expect(refusal.description.hasPrefix("[::ffff:0:127.0.0.1] is a loopback, private or otherwise non-public address; "))
        let target = try Self.policy(allowPrivateNetworks: true).resolve("http://[::1]:8080/hook")
        #expect(target == AddressPolicy.Target(host: .ipv6("::1"), port: 8080, address: "::1"))
        #expect(target.pin == nil)
        let public6 = try Self.policy(allowPrivateNetworks: false).resolve("https://[2606:4700::1111]/hook")
        #expect(public6.address == "2606:4700::1111" && public6.port == 443)
    }

    /// A name is pinned to the address checked; an IPv6 address goes in brackets (curl's CURLOPT_RESOLVE syntax).
    @Test func aNameIsPinnedToTheAddressChecked() throws {
        let policy = AddressPolicy(allowPrivateNetworks: true) { name throws(AddressPolicy.Refusal) in
            guard name == "receiver.test" else { throw AddressPolicy.Refusal(description: "unknown name") }
            return ["::1", "127.0.0.1"]
        }
        let target = try policy.resolve("http://receiver.test:8443/hook")
        #expect(target.pin == "receiver.test:8443:[::1]")
        let refusing = AddressPolicy(allowPrivateNetworks: false) { _ throws(AddressPolicy.Refusal) in ["93.184.215.14", "fd00::1"] }
        let refusal = try #require(throws: AddressPolicy.Refusal.self) { try refusing.resolve("https://mixed.test/") }
        #expect(refusal.description.hasPrefix("mixed.test resolves to fd00::1, a loopback"), "every address of a name is checked, not only the first")
    }

    @Test func theConnectedAddressIsCheckedToo() {
        #expect(!Self.policy(allowPrivateNetworks: false).allowsPeer("::1"))
        #expect(!Self.policy(allowPrivateNetworks: false).allowsPeer("127.0.0.1"))
        #expect(Self.policy(allowPrivateNetworks: false).allowsPeer("93.184.215.14"))
        #expect(Self.policy(allowPrivateNetworks: true).allowsPeer("::1"))
    }

    /// Every form `WebhookURLTests` refuses is refused by the policy as well, whatever the private-network switch says.
    @Test(arguments: WebhookURLTests.refusedForms.map(\.url))
    func refusedFormsAreRefusedByThePolicy(url: String) {
        #expect(AddressPolicy.checkForm(url) != nil)
        for allowPrivate in [false, true] {
            #expect(throws: AddressPolicy.Refusal.self, "\(url)") { try Self.policy(allowPrivateNetworks: allowPrivate).resolve(url) }
        }
    }
}
