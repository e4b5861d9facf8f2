import VouchDomain
import VouchJSON

extension OutputFormatter {
    /// One line per token, each part labelled; never the secret, which the server does not send after creation anyway.
    static func tokenLine(_ token: JSONValue) -> String {
        var line = "\(text(token, "id")): \(text(token, "name")). Principal: \(ShortID.principal(text(token, "principal"))). Role: \(roleWords(token))."
        if token["event_streams"]?.boolValue == false { line += " Push: off, flag answers carry no event stream." }
        if token["flag_definitions"]?.boolValue == true { line += " Flag definitions: yes, reads every targeted key, for a flagd." }
        if token["revoked_at"]?.stringValue != nil { line += " Revoked on \(time(token, "revoked_at"))." }
        line += " Created on \(time(token, "created_at")) by \(text(token, "created_by"))."
        return line
    }

    /// The answer to `token create`: the one time the secret is printed.
    static func createdToken(_ token: JSONValue) -> [String] {
        var lines = [
            "Token \(text(token, "id")) is created for \(text(token, "name")).",
            "Principal: \(ShortID.principal(text(token, "principal")))",
            "Role: \(roleWords(token))",
        ]
        if token["event_streams"]?.boolValue == false { lines.append("Push: off, flag answers carry no event stream") }
        if token["flag_definitions"]?.boolValue == true { lines.append("Flag definitions: yes, reads every targeted key, for a flagd") }
        return lines + [
            "Secret: \(text(token, "token"))",
            "The secret will not be shown again; store it now, for example in VOUCH_TOKEN or your app's configuration.",
        ]
    }

    /// "release manager", or "tester, for tester ending hc30sjq" for a token bound to a tester.
    private static func roleWords(_ token: JSONValue) -> String {
        spoken(token, "role", .role) + (token["tester"]?.stringValue.map { ", for tester \(ShortID.say($0))" } ?? "")
    }
}
