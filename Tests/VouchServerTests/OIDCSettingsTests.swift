import Foundation
import Testing
import VouchCrypto
import VouchDomain
import VouchJSON
import VouchOIDC
import VouchServerKit
import VouchTestSupport

/// `console.oidc.*` and `console.token_sign_in`: each value's rule, the rules between them, and `vouchd check-config`
/// reading a provider's discovery document and key set over HTTP (docs/sign-in.md).
@Suite struct OIDCSettingsTests {
    private func problem(_ key: String, _ value: String) -> String? {
        var configuration = DaemonConfiguration()
        do { try configuration.set(key, value, source: "test", location: "test") } catch { return "\(error)" }
        return nil
    }

    @Test(arguments: [
        ("console.oidc.issuer", "http://login.example.com", "http:// only to a loopback address"),
        ("console.oidc.issuer", "https://login.example.com/?realm=staff", "with no query or fragment"),
        ("console.oidc.issuer", "ftp://login.example.com", "such as https://login.example.com/realms/staff"),
        ("console.oidc.scopes", "email groups", "openid among them"),
        ("console.oidc.scopes", "openid \"email\"", "openid among them"),
        ("console.oidc.role_claim", "", "the name of a claim"),
        ("console.oidc.principal_claim", "e mail", "no spaces"),
        ("console.oidc.roles", "vouch-testers=tester", "'vouch-testers=tester' maps to 'tester', which is not a role staff can get; roles: admin, release_manager, maintainer"),
        ("console.oidc.roles", "vouch-admins", "'vouch-admins' is not one"),
        ("console.oidc.roles", "a=admin,,b=maintainer", "'' is not one"),
        ("console.oidc.roles", "a=admin,a=maintainer", "'a' is mapped twice"),
        ("console.token_sign_in", "no", "allowed: true, false"),
    ])
    func badValuesAreRefusedWithWhatIsAllowed(key: String, value: String, words: String) throws {
        let message = try #require(problem(key, value))
        #expect(message.contains("\(key) = '\(value)' is not valid"))
        #expect(message.contains(words), "\(message)")
    }

    @Test(arguments: [
        ("console.oidc.issuer", "https://login.example.com/realms/staff"), ("console.oidc.issuer", "http://127.0.0.1:5443/api/oidc"),
        ("console.oidc.issuer", "http://[::1]:5443"), ("console.oidc.issuer", ""), ("console.oidc.scopes", "openid"),
        ("console.oidc.roles", "vouch-admins=admin, vouch-release-managers = release_manager,cn=vouch=maintainer"),
    ])
    func goodValuesAreTaken(key: String, value: String) {
        #expect(problem(key, value) == nil)
    }

    @Test func rolesAreReadInOrderAndTheFirstMatchWins() throws {
        var configuration = DaemonConfiguration()
        try configuration.set("console.oidc.roles", "vouch-rm=release_manager, vouch-admins=admin,cn=x=maintainer", source: "test", location: "test")
        let settings = configuration.oidcSettings
        #expect(settings.roles == [.init(claimValue: "vouch-rm", role: .releaseManager), .init(claimValue: "vouch-admins", role: .admin),
                                   .init(claimValue: "cn=x", role: .maintainer)])
        #expect(settings.role(for: ["vouch-admins", "vouch-rm"]) == .releaseManager)
        #expect(settings.role(for: ["vouch-admins"]) == .admin)
        #expect(settings.role(for: ["vouch-testers"]) == nil)
        #expect(settings.role(for: []) == nil)
    }

    @Test func theRedirectAddressDefaultsToTheConsolesPublicAddress() throws {
        var configuration = DaemonConfiguration()
        #expect(configuration.oidcSettings.redirectURL == "")
        try configuration.set("console.public_url", "https://vouch.example.com/", source: "test", location: "test")
        #expect(configuration.oidcSettings.redirectURL == "https://vouch.example.com/console/sign-in/oidc/callback")
        try configuration.set("console.oidc.redirect_url", "https://vouch.example.com/cb", source: "test", location: "test")
        #expect(configuration.oidcSettings.redirectURL == "https://vouch.example.com/cb")
        #expect(configuration.consoleSettings.oidc.redirectURL == "https://vouch.example.com/cb")
    }

    private func combinationProblem(_ values: [String: String]) throws -> String? {
        var configuration = DaemonConfiguration()
        for (key, value) in values.sorted(by: { $0.key < $1.key }) { try configuration.set(key, value, source: "test", location: "test") }
        do { try configuration.checkCombinations() } catch { return "\(error)" }
        return nil
    }

    @Test func anIssuerNeedsAClientRolesAndARedirectAddress() throws {
        let directory = try TemporaryDirectory()
        var complete = ["console.oidc.issuer": "https://login.example.com", "console.oidc.client_id": "vouch",
                        "console.oidc.roles": "vouch-admins=admin", "console.public_url": "https://vouch.example.com"]
        #expect(try combinationProblem(complete) == nil)
        for (missing, words) in [("console.oidc.client_id", "needs console.oidc.client_id"), ("console.oidc.roles", "needs console.oidc.roles"),
                                 ("console.public_url", "needs console.oidc.redirect_url or console.public_url")] {
            var values = complete
            values[missing] = nil
            #expect(try combinationProblem(values)?.contains(words) == true, "without \(missing)")
        }
        complete["console.oidc.client_secret_file"] = directory.file("absent")
        #expect(try combinationProblem(complete)?.contains("console.oidc.client_secret_file = '\(directory.file("absent"))' cannot be read") == true)
        try Data("\n".utf8).write(to: URL(fileURLWithPath: directory.file("empty")))
        complete["console.oidc.client_secret_file"] = directory.file("empty")
        #expect(try combinationProblem(complete)?.contains("has no secret on its first line") == true)
        try Data("s3cret-value\n".utf8).write(to: URL(fileURLWithPath: directory.file("secret")))
        complete["console.oidc.client_secret_file"] = directory.file("secret")
        #expect(try combinationProblem(complete) == nil)
        complete["console.token_sign_in"] = "false"
        #expect(try combinationProblem(complete) == nil, "with a provider, tokens may be turned off")
    }

    @Test func tokenSignInCannotBeTurnedOffWithoutAProvider() throws {
        let message = try #require(try combinationProblem(["console.token_sign_in": "false"]))
        #expect(message.contains("console.token_sign_in = 'false' (test) needs console.oidc.issuer"))
    }

    @Test func checkConfigSaysThereIsNoProviderWhenNoneIsSet() throws {
        let directory = try TemporaryDirectory()
        let run = try VouchdRun(["check-config", "--state-dir", directory.path])
        #expect(run.status == 0)
        #expect(run.output.contains("Identity provider: none (console.oidc.issuer is empty); staff sign in with a token"))
    }

    @Test func checkConfigReadsTheProvidersDiscoveryAndKeysAndSaysWhatItFound() throws {
        let directory = try TemporaryDirectory()
        let provider = try StaticProvider(directory: try TemporaryDirectory())
        defer { provider.stop() }
        let rsa = SigningKey.generate(.rs256)
        let ec = SigningKey.generate(.es256)
        let (n, e) = rsa.publicComponents
        let (x, y) = ec.publicComponents
        let keys: JSONValue = .object(["keys": .array([
            .object(["kty": .string("RSA"), "kid": .string("rsa-1"), "use": .string("sig"), "n": .string(Base64URL.encode(n)), "e": .string(Base64URL.encode(e))]),
            .object(["kty": .string("EC"), "kid": .string("ec-1"), "crv": .string("P-256"), "x": .string(Base64URL.encode(x)), "y": .string(Base64URL.encode(y))]),
            .object(["kty": .string("oct"), "kid": .string("hmac"), "k": .string("c2VjcmV0")]),
        ])])
        try provider.publish(keys: keys, methods: ["plain", "S256"])
        try Data("the-client-secret\n".utf8).write(to: URL(fileURLWithPath: directory.file("secret")))
        let environment = ["VOUCHD_CONSOLE_OIDC_ISSUER": provider.issuer, "VOUCHD_CONSOLE_OIDC_CLIENT_ID": "vouch-console",
                           "VOUCHD_CONSOLE_OIDC_CLIENT_SECRET_FILE": directory.file("secret"),
                           "VOUCHD_CONSOLE_OIDC_ROLES": "vouch-admins=admin,vouch-release-managers=release_manager",
                           "VOUCHD_CONSOLE_PUBLIC_URL": "https://vouch.example.com"]
        let run = try VouchdRun(["check-config", "--state-dir", directory.path], environment: environment)
        #expect(run.status == 0, "\(run.errors)")
        for line in [
            "Identity provider: \(provider.issuer): discovery document read from \(provider.issuer)/.well-known/openid-configuration",
            "Identity provider authorization endpoint: \(provider.issuer)/auth",
            "Identity provider token endpoint: \(provider.issuer)/token",
            "Identity provider key set: \(provider.issuer)/jwks: 2 usable signing keys (RS256 key \"rsa-1\", ES256 key \"ec-1\"); 1 left out",
            "Identity provider PKCE with S256: offered",
            "Identity provider client: vouch-console, secret from \(directory.file("secret"))",
            "Identity provider redirect address: https://vouch.example.com/console/sign-in/oidc/callback",
            "Identity provider roles from claim groups: vouch-admins gives admin, vouch-release-managers gives release_manager",
            "Identity provider principal from claim: email",
            "Token sign-in: offered",
        ] {
            #expect(run.output.contains(line + "\n"), "check-config says: \(line)")
        }
        #expect(!run.output.contains("the-client-secret") && !run.errors.contains("the-client-secret"))

        // A provider that offers PKCE but not S256 is refused, and so is a key set with nothing Vouch can use.
        try provider.publish(keys: keys, methods: ["plain"])
        let plain = try VouchdRun(["check-config", "--state-dir", directory.path], environment: environment)
        #expect(plain.status == 1)
        #expect(plain.errors.contains("the provider offers PKCE with plain but not S256"))
        try provider.publish(keys: .object(["keys": .array([])]), methods: [])
        let empty = try VouchdRun(["check-config", "--state-dir", directory.path], environment: environment)
        #expect(empty.status == 1)
        #expect(empty.errors.contains("\(provider.issuer)/jwks has no RS256 or ES256 signing key Vouch can use"))
    }

    @Test func checkConfigRefusesADiscoveryDocumentOfAnotherIssuerOrNoneAtAll() throws {
        let directory = try TemporaryDirectory()
        let provider = try StaticProvider(directory: try TemporaryDirectory())
        defer { provider.stop() }
        try provider.publish(keys: .object(["keys": .array([])]), methods: [], issuer: "https://elsewhere.example.com")
        let environment = ["VOUCHD_CONSOLE_OIDC_ISSUER": provider.issuer, "VOUCHD_CONSOLE_OIDC_CLIENT_ID": "vouch-console",
                           "VOUCHD_CONSOLE_OIDC_ROLES": "vouch-admins=admin", "VOUCHD_CONSOLE_PUBLIC_URL": "https://vouch.example.com"]
        let other = try VouchdRun(["check-config", "--state-dir", directory.path], environment: environment)
        #expect(other.status == 1)
        #expect(other.errors.contains("its issuer is \"https://elsewhere.example.com\", not the configured \"\(provider.issuer)\""))
        var missing = environment
        missing["VOUCHD_CONSOLE_OIDC_ISSUER"] = provider.issuer + "/nothing-here"
        let absent = try VouchdRun(["check-config", "--state-dir", directory.path], environment: missing)
        #expect(absent.status == 1)
        #expect(absent.errors.contains("the discovery document at \(provider.issuer)/nothing-here/.well-known/openid-configuration answered HTTP 404, not 200"))
    }
}

/// A provider's two public documents served as files by Python's http.server: what check-config reads. The keys are
/// real ones made by libcrypto in the test; sign-in itself is tested against a real provider (Tests/External).
private final class StaticProvider {
    let directory: TemporaryDirectory
    let process = ChildProcess()
    let issuer: String

    init(directory: TemporaryDirectory) throws {
        self.directory = directory
        let portFile = directory.file("port")
        // The server writes the port it was given to a file (renamed into place, so it is read whole).
        let script = """
            import functools, http.server, os, sys
            handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
            open(sys.argv[2] + ".tmp", "w").write(str(server.server_address[1]))
            os.rename(sys.argv[2] + ".tmp", sys.argv[2])
            server.serve_forever()
            """
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, directory.path, portFile]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        var port: Int?
        while port == nil, Date() < deadline {
            port = (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap { Int($0) }
            if port == nil { Thread.sleep(forTimeInterval: 0.02) }
        }
        guard let port else {
            kill(process.processIdentifier, SIGKILL)
            throw DaemonTestError("python3's http.server did not start within 10 seconds")
        }
        issuer = "http://127.0.0.1:\(port)"
    }

    func publish(keys: JSONValue, methods: [String], issuer documentIssuer: String? = nil) throws {
        try FileManager.default.createDirectory(atPath: directory.file(".well-known"), withIntermediateDirectories: true)
        var discovery: JSONObject = ["issuer": .string(documentIssuer ?? issuer), "authorization_endpoint": .string(issuer + "/auth"),
                                     "token_endpoint": .string(issuer + "/token"), "jwks_uri": .string(issuer + "/jwks"),
                                     "id_token_signing_alg_values_supported": .strings(["RS256", "ES256"])]
        if !methods.isEmpty { discovery["code_challenge_methods_supported"] = .strings(methods) }
        try Data(JSONWriter.bytes(.object(discovery))).write(to: URL(fileURLWithPath: directory.file(".well-known/openid-configuration")))
        try Data(JSONWriter.bytes(keys)).write(to: URL(fileURLWithPath: directory.file("jwks")))
    }

    /// SIGKILL: the test runner blocks SIGTERM, and a child inherits the blocked signal.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

private struct DaemonTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
