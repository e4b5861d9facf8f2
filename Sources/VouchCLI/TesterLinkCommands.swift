import VouchDomain
import VouchJSON

/// `vouch tester link|links|unlink`: personal links that sign a tester in to the web console, without a token.
enum TesterLinkCommands {
    static func all() -> [Command] { [link(), links(), unlink()] }

    static let linkArgument = WebhookCommands.idArgument(name: "link", help: "The link's id, such as l_4w9tedpdf8fce6h6, from 'vouch tester links'.",
                                                         example: "l_4w9tedpdf8fce6h6")

    static func link() -> Command {
        Command(
            name: "link", abstract: "Make a personal link that signs a tester in to the web console; it is shown once.",
            discussion: """
                Opening the link signs the tester in to the console, where they try the fixes they are enrolled in, give feedback, \
                and see, export or withdraw their data; they need no token. Anyone who has the link can act as the tester until it \
                expires or is revoked, so send it as you would send a password. Only a hash of it is kept: it cannot be shown again, \
                and a lost link is revoked with 'unlink' and replaced by a new one.

                Example: vouch tester link t_4w9tedpdf8fc --valid-for 7d
                """,
            arguments: [TesterCommands.idArgument],
            options: [.single("valid-for", "duration", help: "How long the link works, from 1h to 90d, such as 14d. "
                              + "Default: the server's console.link_valid_for, 14 days unless configured otherwise.")]
        ) { context in
            let id = context.invocation.argument("id")
            var body: JSONObject = [:]
            if let validFor = context.invocation.value("valid-for") { body["valid_for"] = .string(validFor) }
            let link = try context.api.post(APIClient.path("/v1/testers", id, "/links"), body: body)
            context.output.emit(link) { link in
                [
                    "Link \(OutputFormatter.text(link, "id")) for tester \(ShortID.say(id)) is created.",
                    "Address: \(OutputFormatter.text(link, "url"))",
                    "Expires: \(OutputFormatter.time(link, "expires_at"))",
                    "The address is shown only this once: send it to the tester now, as you would send a password.",
                ]
            }
        }
    }

    static func links() -> Command {
        Command(
            name: "links", abstract: "List a tester's personal links, oldest first; never their addresses.",
            arguments: [TesterCommands.idArgument]
        ) { context in
            let answer = try context.api.get(APIClient.path("/v1/testers", context.invocation.argument("id"), "/links"))
            context.output.emit(answer) { answer in
                OutputFormatter.listLines((answer["links"]?.arrayValue ?? [], nil), OutputFormatter.testerLinkLine, "link", "links")
            }
        }
    }

    static func unlink() -> Command {
        Command(
            name: "unlink", abstract: "Revoke a tester's personal link: it opens nothing from now on.",
            discussion: "The tester's console sessions that the link started end at once. To give the tester access again, make a new link.",
            arguments: [TesterCommands.idArgument, linkArgument]
        ) { context in
            let id = context.invocation.argument("id")
            let link = try context.api.delete(APIClient.path("/v1/testers", id, "/links/" + APIClient.escape(context.invocation.argument("link"))))
            context.output.emit(link) { link in
                [
                    "Link \(OutputFormatter.short(link, "id")) of tester \(ShortID.say(id)) is revoked: it opens nothing from now on.",
                    "The tester's console sessions from that link have ended.",
                ]
            }
        }
    }
}
