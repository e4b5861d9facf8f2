import Foundation

/// `--server`, `--token` and `--json`, which every command takes, resolved with `VOUCH_URL` and `VOUCH_TOKEN`.
struct GlobalOptions {
    static let defaultServer = "http://127.0.0.1:8750"

    static let options: [CommandOption] = [
        .single("server", "url", help: "The Vouch server's address. Default: the VOUCH_URL environment variable, or \(defaultServer)."),
        .single("token", "token", help: "The API token to send. Default: the VOUCH_TOKEN environment variable."),
        .flag("json", help: "Print the server's JSON answer instead of plain lines."),
    ]

    /// The server's base URL without a trailing slash.
    var server: String
    var token: String?
    var json: Bool

    init(invocation: Invocation, environment: [String: String]) throws(UsageError) {
        let given = invocation.value("server")
        let fromEnvironment = GlobalOptions.nonEmpty(environment["VOUCH_URL"])
        let address = given ?? fromEnvironment ?? GlobalOptions.defaultServer
        guard let server = GlobalOptions.baseURL(address) else {
            let source = given != nil ? "'--server <url>'" : "the VOUCH_URL environment variable"
            throw UsageError("Invalid value '\(address)' for \(source): give an http:// or https:// URL, such as \(GlobalOptions.defaultServer).",
                             commandPath: invocation.path)
        }
        self.server = server
        if let given = invocation.value("token"), GlobalOptions.nonEmpty(given) == nil {
            // An empty --token must not quietly become VOUCH_TOKEN's: the caller meant some token, not that one.
            throw UsageError("Invalid value '' for '--token <token>': give a token, or leave the option out to use VOUCH_TOKEN.",
                             commandPath: invocation.path)
        }
        token = GlobalOptions.nonEmpty(invocation.value("token")) ?? GlobalOptions.nonEmpty(environment["VOUCH_TOKEN"])
        json = invocation.flag("json")
    }

    /// The address with its trailing slashes removed, or nil when it is not an HTTP URL with a host.
    static func baseURL(_ address: String) -> String? {
        var text = address.trimmingCharacters(in: .whitespaces)
        while text.hasSuffix("/") { text.removeLast() }
        let lowered = text.lowercased()
        guard let scheme = ["http://", "https://"].first(where: lowered.hasPrefix) else { return nil }
        let rest = text.dropFirst(scheme.count)
        guard !rest.isEmpty, !rest.contains(where: { $0 == " " || $0 == "?" || $0 == "#" }) else { return nil }
        return text
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        return text
    }
}
