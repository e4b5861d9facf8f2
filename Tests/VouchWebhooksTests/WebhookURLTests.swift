import Testing
@testable import VouchWebhooks

struct WebhookURLTests {
    /// Forms refused before any lookup, with a word of the message that says what is allowed.
    static let refusedForms: [(url: String, says: String)] = [
        ("ftp://example.org/", "http:// or https://"), ("http:///nohost", "must name a host"), ("not a url", "printable ASCII"),
        ("example.org/hook", "http:// or https://"), ("http://user:pass@example.org/", "user name or password"),
        ("http://hooks@example.org/", "user name or password"),
        // Ports.
        ("http://example.org:0/", "port from 1 to 65535"), ("http://example.org:99999/", "port from 1 to 65535"),
        ("http://example.org:65536/", "port from 1 to 65535"), ("http://example.org:/", "port from 1 to 65535"),
        ("http://example.org:-1/", "port from 1 to 65535"), ("http://example.org:8o/", "port from 1 to 65535"),
        ("http://[2606:4700::1111]:0/", "port from 1 to 65535"), ("http://[2606:4700::1111]:123456/", "port from 1 to 65535"),
        ("http://93.184.215.14:99999/", "port from 1 to 65535"),
        // Brackets around anything but an IPv6 address, zones, unclosed brackets, text after ']'.
        ("http://[1.1.1.1]/", "IPv6 address"), ("http://[example.org]/", "IPv6 address"), ("http://[fe80::1%25eth0]/", "IPv6 address"),
        ("http://[::1/", "without a ']'"), ("http://[::1]x/", "':' and a port"), ("http://[v1.fe]/", "IPv6 address"),
        // CR and LF, raw anywhere or percent-encoded in the host; other control characters, spaces, non-ASCII.
        ("http://example.org/\r\nX-Injected: 1", "carriage return or line feed"), ("http://exa\nmple.org/", "carriage return or line feed"),
        ("http://example.org\r/", "carriage return or line feed"), ("http://example.org/?q=\n", "carriage return or line feed"),
        ("http://example.org%0d%0aX-Injected:%201/", "letters, digits"), ("http://example.org%0A/", "letters, digits"),
        ("http://a%2eb.example/", "letters, digits"), ("http://example.org/\u{0}", "printable ASCII"), ("http://example.org/\t", "printable ASCII"),
        ("http://exa mple.org/", "printable ASCII"), ("http://bücher.example/", "printable ASCII"), ("http://example.org/é", "printable ASCII"),
        ("http://example.org\\@127.0.0.1/", "user name or password"), ("http://127.0.0.1\\.example.org/", "letters, digits"),
        // IPv4 written other than as four decimal numbers.
        ("http://2130706433/", "four decimal numbers"), ("http://0x7f000001/", "four decimal numbers"), ("http://0x7f.0.0.1/", "four decimal numbers"),
        ("http://0177.0.0.1/", "four decimal numbers"), ("http://127.1/", "four decimal numbers"), ("http://1.1.1.1.1/", "four decimal numbers"),
        ("http://256.1.1.1/", "four decimal numbers"), ("http://1.1.1.1./", "four decimal numbers"), ("http://example.123/", "four decimal numbers"),
        // Malformed names.
        ("http://a..b.example/", "labels"), ("http://.example.org/", "labels"), ("http://\(String(repeating: "a", count: 64)).example/", "labels"),
        ("http://example.org/" + String(repeating: "a", count: 2_000), "at most 2000"),
    ]

    @Test(arguments: refusedForms)
    func refusedFormsSayWhatIsAllowed(url: String, says: String) throws {
        let problem = try #require(throws: WebhookURL.Problem.self, "\(url)") { try WebhookURL(url) }
        #expect(problem.message.contains(says), "\(url): \(problem.message)")
        #expect(!problem.message.contains("\r") && !problem.message.contains("\n"))
    }

    @Test(arguments: [
        ("https://hooks.example.org/vouch?x=1#f", WebhookURL.Host.name("hooks.example.org"), 443),
        ("HTTP://Example.ORG:8080", .name("Example.ORG"), 8080), ("http://example.org./hook", .name("example.org."), 80),
        ("http://under_score.example:1/", .name("under_score.example"), 1), ("http://93.184.215.14:65535/a%0D%0A", .ipv4("93.184.215.14"), 65_535),
        ("http://0.0.0.0/", .ipv4("0.0.0.0"), 80), ("https://[2606:4700::1111]:8443/x", .ipv6("2606:4700::1111"), 8_443),
        ("http://[::ffff:0:127.0.0.1]", .ipv6("::ffff:0:127.0.0.1"), 80), ("http://xn--bcher-kva.example/", .name("xn--bcher-kva.example"), 80),
        ("http://1host.example/", .name("1host.example"), 80),
    ])
    func acceptedFormsAreRead(url: String, host: WebhookURL.Host, port: Int) throws {
        let parsed = try WebhookURL(url)
        #expect(parsed.host == host)
        #expect(parsed.port == port)
    }
}
