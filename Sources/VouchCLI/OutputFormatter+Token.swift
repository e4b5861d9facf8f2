import VouchJSON

extension OutputFormatter {
    /// One line per token; never the secret, which the server does not send after creation anyway.
    static func tokenLine(_ token: JSONValue) -> String {
        var line = "\(text(token, "id")): \(text(token, "name")), role \(text(token, "role"))"
        if let tester = token["tester"]?.stringValue { line += " for tester \(tester)" }
        if let revokedAt = token["revoked_at"]?.stringValue { line += ", revoked \(revokedAt)" }
        line += ", created \(text(token, "created_at")) by \(text(token, "created_by"))."
        return line
    }

    /// The answer to `token create`: the one time the secret is printed.
    static func createdToken(_ token: JSONValue) -> [String] {
        [
            "Token \(text(token, "id")) created for \(text(token, "name")) with the role \(text(token, "role"))"
                + (token["tester"]?.stringValue.map { " for tester \($0)." } ?? "."),
            "Secret: \(text(token, "token"))",
            "The secret will not be shown again; store it now, for example in VOUCH_TOKEN or your app's configuration.",
        ]
    }
}
