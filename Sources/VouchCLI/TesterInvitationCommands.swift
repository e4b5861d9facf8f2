import VouchDomain
import VouchJSON

/// `vouch tester invite|invitations|uninvite`: invitations through which a person joins as a tester and consents
/// herself (docs/invitations.md).
enum TesterInvitationCommands {
    static func all() -> [Command] { [invite(), invitations(), uninvite()] }

    static let invitationArgument = WebhookCommands.idArgument(name: "invitation", help: "The invitation's id, such as i_4w9tedpdf8fce6h6, from 'vouch tester invitations'.",
                                                               example: "i_4w9tedpdf8fce6h6")

    static func invite() -> Command {
        Command(
            name: "invite", abstract: "Make an invitation to join as a tester; its address is shown once.",
            discussion: """
                The person who follows the address reads who runs the programme, what is collected and why, how long it is kept \
                and how to withdraw, and consents herself; then she gives her display name, her assistive technologies and, unless \
                --key binds one, the tester code her app shows. Nothing about her is stored until she consents. The server must \
                have operator.name and operator.contact configured. Only a hash of the address is kept: it cannot be shown again, \
                and a lost invitation is revoked with 'uninvite' and replaced by a new one.

                Example: vouch tester invite --fix tv-channel-selector-labels --key user-8841 --language ja --name-hint "Aiko, support ticket 4411"
                """,
            options: [
                .list("key", "key", help: "A targeting key to bind in advance, such as the account of the person who reported the defect; "
                      + "she is then not asked for one. Repeat for several, at most 20."),
                .list("fix", "fix", help: "A fix she is enrolled in when she joins; repeat for several, at most 50."),
                .list("panel", "panel", help: "A panel she is added to when she joins, such as p_4w9tedpdf8fc; at most 50."),
                .single("language", "language", help: "The language the pages open in: en or ja. She can switch. Default: en.", allowed: ["en", "ja"]),
                .single("expires", "duration", help: "How long the invitation works, from 1h to 90d, such as 14d. Default: 14 days."),
                .single("uses", "count", help: "How many people may join through it, from 1 to 1000. Default: 1.", range: 1...1_000),
                .single("name-hint", "text", help: "Your own note of whom it is for, up to 200 characters; never shown to her."),
            ]
        ) { context in
            let invocation = context.invocation
            var body: JSONObject = [:]
            if let keys = invocation.list("key") { body["targeting_keys"] = .strings(keys) }
            if let fixes = invocation.list("fix") { body["fixes"] = .strings(fixes) }
            if let panels = invocation.list("panel") { body["panels"] = .strings(panels) }
            if let language = invocation.value("language") { body["language"] = .string(language) }
            if let expires = invocation.value("expires") { body["expires_in"] = .string(expires) }
            if let uses = invocation.integer("uses") { body["uses"] = .int(uses) }
            if let hint = invocation.value("name-hint") { body["name_hint"] = .string(hint) }
            let invitation = try context.api.post("/v1/invitations", body: body)
            context.output.emit(invitation) { invitation in
                [
                    "Invitation \(OutputFormatter.text(invitation, "id")) is created.",
                    "Address: \(OutputFormatter.text(invitation, "url"))",
                    "Fixes she joins: \(OutputFormatter.list(invitation["fixes"]))",
                    "Panels she joins: \(OutputFormatter.list(invitation["panels"]))",
                    "Language: \(OutputFormatter.text(invitation, "language"))",
                    "Uses allowed: \(OutputFormatter.number(invitation, "uses_allowed"))",
                    "Expires: \(OutputFormatter.time(invitation, "expires_at"))",
                    "The address is shown only this once: send it to the person you invite now, as you would send a password.",
                ]
            }
        }
    }

    static func invitations() -> Command {
        Command(name: "invitations", abstract: "List invitations, oldest first; never their addresses.") { context in
            let answer = try context.api.get("/v1/invitations")
            context.output.emit(answer) { answer in
                OutputFormatter.listLines((answer["invitations"]?.arrayValue ?? [], nil), OutputFormatter.invitationLine, "invitation", "invitations")
            }
        }
    }

    static func uninvite() -> Command {
        Command(
            name: "uninvite", abstract: "Revoke an invitation: its address opens nothing from now on.",
            discussion: "Testers who already joined through it stay testers. To invite again, make a new invitation.",
            arguments: [invitationArgument]
        ) { context in
            let invitation = try context.api.delete("/v1/invitations/" + APIClient.escape(context.invocation.argument("invitation")))
            context.output.emit(invitation) { invitation in
                ["Invitation \(OutputFormatter.short(invitation, "id")) is revoked: its address opens nothing from now on."]
            }
        }
    }
}
