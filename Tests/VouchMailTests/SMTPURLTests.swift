import Testing
import VouchMail

struct SMTPURLTests {
    @Test(arguments: [
        ("smtp://127.0.0.1:2525", "smtp://127.0.0.1:2525", SMTPURL.Security.none),
        ("smtp://127.8.9.10", "smtp://127.8.9.10:25", .none),
        ("SMTP://LocalHost:25/", "smtp://LocalHost:25", .none),
        ("smtp://[::1]:2525", "smtp://[::1]:2525", .none),
        ("smtp://[::ffff:127.0.0.1]:2525", "smtp://[::ffff:127.0.0.1]:2525", .none),
        ("smtp://localhost:25?starttls=required", "smtp://localhost:25", .startTLS),
        ("smtp://localhost?starttls=off", "smtp://localhost:25", .none),
        ("smtp://mail.example.org:587", "smtp://mail.example.org:587", .startTLS),
        ("smtp://mail.example.org?starttls=required", "smtp://mail.example.org:25", .startTLS),
        ("smtp://192.0.2.7:587", "smtp://192.0.2.7:587", .startTLS),
        ("smtp://[2001:db8::25]:587", "smtp://[2001:db8::25]:587", .startTLS),
        ("smtps://mail.example.org", "smtps://mail.example.org:465", .implicitTLS),
        ("smtps://127.0.0.1:4650", "smtps://127.0.0.1:4650", .implicitTLS),
    ])
    func acceptedURLs(text: String, connectionURL: String, security: SMTPURL.Security) throws {
        let url = try SMTPURL(text)
        #expect(url.connectionURL == connectionURL)
        #expect(url.security == security)
    }

    @Test func onlyLoopbackHostsCountAsLoopback() throws {
        for host in ["127.0.0.1", "127.255.0.1", "localhost", "[::1]", "[0:0:0:0:0:0:0:1]"] {
            #expect(try SMTPURL("smtp://\(host)").isLoopback, "\(host)")
        }
        for host in ["128.0.0.1", "10.0.0.1", "localhost.example.org", "127.0.0.1.nip.io", "[::2]", "[fe80::1]", "mail"] {
            #expect(try !SMTPURL("smtp://\(host)").isLoopback, "\(host)")
            #expect(try SMTPURL("smtp://\(host)").security == .startTLS, "\(host)")
        }
    }

    @Test func nonLoopbackSMTPWithoutSTARTTLSIsRefused() {
        #expect { try SMTPURL("smtp://mail.example.org:25?starttls=off") } throws: { error in
            let message = "\(error)"
            return message.contains("must use STARTTLS") && message.contains("not on loopback") && message.contains("smtps://")
        }
    }

    @Test(arguments: [
        ("http://mail.example.org", "must be smtp://host:port (STARTTLS, or plain text to a relay on loopback) or smtps://host:port"),
        ("mail.example.org:587", "must be smtp://host:port"),
        ("smtp://", "must name a host"),
        ("smtp://:587", "must name a host"),
        ("smtp://user:secret@mail.example.org", "must not carry a user name or password"),
        ("smtp://mail.example.org:0", "port from 1 to 65535"),
        ("smtp://mail.example.org:65536", "port from 1 to 65535"),
        ("smtp://mail.example.org:abc", "port from 1 to 65535"),
        ("smtp://mail.example.org/client.example.org", "must not have a path"),
        ("smtp://mail.example.org#x", "must not have a path or fragment"),
        ("smtp://mail.example.org?tls=none", "allows only the query ?starttls=required or ?starttls=off"),
        ("smtps://mail.example.org?starttls=off", "must not say starttls with smtps://"),
        ("smtp://127.1", "four decimal numbers"),
        ("smtp://2130706433", "four decimal numbers"),
        ("smtp://[127.0.0.1]", "IPv6 address"),
        ("smtp://[::1", "without a ']'"),
        ("smtp://mail%2eexample.org", "letters, digits"),
        ("smtp://mail.example.org\r\n", "printable ASCII"),
        ("smtp://mäil.example.org", "printable ASCII"),
    ])
    func refusedURLsSayWhatIsAllowed(text: String, words: String) {
        #expect { try SMTPURL(text) } throws: { error in
            let message = "\(error)"
            return message.contains(words) && !message.contains("secret")
        }
    }
}
