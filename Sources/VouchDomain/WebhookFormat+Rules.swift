import Foundation

extension WebhookFormat {
    /// What is wrong with `url` for this format, beyond the rules every webhook URL follows; nil when nothing is.
    ///
    /// A `github-dispatch` endpoint sends a bearer token, so it must be a repository's dispatches address on
    /// api.github.com or a GitHub Enterprise Server (`https://HOST/api/v3/repos/OWNER/REPO/dispatches`), over https
    /// (plain http only to a loopback address, for a local proxy or a test). The other formats take any webhook URL:
    /// Slack-compatible receivers (Mattermost, Rocket.Chat) use addresses of their own.
    public func urlProblem(_ url: String) -> String? {
        guard self == .githubDispatch else { return nil }
        let expected = "a github-dispatch webhook posts to a repository's dispatches address, "
            + "https://api.github.com/repos/OWNER/REPO/dispatches or, on GitHub Enterprise Server, https://HOST/api/v3/repos/OWNER/REPO/dispatches"
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased(),
              components.query == nil, components.fragment == nil else { return expected }
        let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host)
        guard scheme == "https" || (scheme == "http" && loopback) else {
            return "must be https:// (plain http:// only to a loopback address): a github-dispatch webhook sends a token"
        }
        var parts = components.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        if host != "api.github.com", parts.starts(with: ["api", "v3"]) { parts = parts.dropFirst(2) }
        let names = Array(parts)
        let nameCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard names.count == 4, names[0] == "repos", names[3] == "dispatches",
              names[1...2].allSatisfy({ !$0.isEmpty && $0.unicodeScalars.allSatisfy(nameCharacters.contains) }) else { return expected }
        return nil
    }

    /// What is wrong with a `github-dispatch` token file's name; nil when it is a plain file name in
    /// `webhooks.token_directory`. Paths are refused: an admin could otherwise point a webhook at another secret
    /// vouchd can read (the OIDC client secret, the mail relay's password) and have it sent where they chose.
    public static func tokenFileNameProblem(_ name: String) -> String? {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard !name.isEmpty, name.count <= 255, !name.hasPrefix("."), name.unicodeScalars.allSatisfy(allowed.contains) else {
            return "must be the name of a file in webhooks.token_directory, such as github-deploy.token: letters, digits, '.', '_' and '-', "
                + "not starting with '.'; paths are refused, so that no webhook can send another secret vouchd can read"
        }
        return nil
    }
}
