import VouchJSON

/// `vouch evidence export`: what testers verified, in the formats auditors and buyers read (docs/evidence.md).
enum EvidenceCommands {
    static func group() -> Command {
        Command(
            name: "evidence", abstract: "Export what testers verified, in the formats auditors and buyers read.",
            discussion: "The exports name testers by pseudonym only; a tester who withdrew is 'withdrawn'.",
            subcommands: [export()])
    }

    static func export() -> Command {
        Command(
            name: "export", abstract: "Print a fix's feedback as W3C EARL assertions in JSON-LD, one per feedback and WCAG criterion of the fix.",
            discussion: "Redirect it to a file, such as 'vouch evidence export FIX --format earl > evidence.jsonld'.",
            arguments: [FeedbackCommands.fixArgument],
            options: [
                .single("format", "format", help: "The format: earl (W3C EARL 1.0 in JSON-LD).", required: true, allowed: ["earl"]),
                .single("revision", "n", help: "The revision whose feedback is exported; the current one when not given.", range: 1...Int(Int32.max)),
            ]
        ) { context in
            let invocation = context.invocation
            let document = try context.api.get(APIClient.path("/v1/fixes", invocation.argument("fix"), "/evidence"),
                                               query: [("revision", invocation.value("revision"))])
            context.console.write(.output, JSONWriter.string(document, pretty: true) + "\n")
        }
    }
}
