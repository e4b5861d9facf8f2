import VouchDomain
import VouchJSON

/// A tester's fields as options (the API's field names in kebab-case), shared by `tester add` and `tester update`.
enum TesterFields {
    static func options(required: Bool) -> [CommandOption] {
        let replaces = required ? "" : " Replaces the whole list."
        return [
            .single("name", "name", help: "The tester's display name, such as \"Ana Example\".", required: required),
            .single("contact", "contact", help: "How to reach the tester, such as an email address." + (required ? "" : " An empty value clears it.")),
            .single("email", "address", help: "The tester's address for notifications by email, such as ana@example.org." + (required ? "" : " An empty value clears it.")),
            .list("assistive-tech", "technology:platform:version",
                  help: "An assistive technology the tester uses, its platform and, optionally, its version, such as voiceover:ios:18.2 or talkback:android. "
                      + "Technologies: \(AssistiveTechnology.allowedList).\(replaces)",
                  required: required),
            .list("targeting-key", "key", help: "The app's user id of one of the tester's accounts; a fix they are enrolled in turns on for it.\(replaces)",
                  required: required),
            .single("consent", "version",
                    help: "The version of the consent text the tester agreed to; the server records when and by whom. No consent, no tester."
                        + (required ? "" : " A new version renews the consent record."),
                    required: required),
        ]
    }

    static let optionNames = ["name", "contact", "email", "assistive-tech", "targeting-key", "consent"]

    /// The JSON members for the fields given on the command line, and only those.
    static func body(from invocation: Invocation) -> JSONObject {
        var body = JSONObject()
        if let name = invocation.value("name") { body["name"] = .string(name) }
        if let contact = invocation.value("contact") { body["contact"] = contact.isEmpty ? .null : .string(contact) }
        if let email = invocation.value("email") { body["email"] = email.isEmpty ? .null : .string(email) }
        if let technologies = invocation.list("assistive-tech") { body["assistive_tech"] = .strings(technologies) }
        if let keys = invocation.list("targeting-key") { body["targeting_keys"] = .strings(keys) }
        if let version = invocation.value("consent") { body["consent"] = .object(["version": .string(version)]) }
        return body
    }
}
