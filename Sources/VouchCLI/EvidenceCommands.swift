/// `vouch evidence export|report`: what testers verified, in the formats auditors and buyers read (docs/evidence.md).
enum EvidenceCommands {
    static func group() -> Command {
        Command(
            name: "evidence", abstract: "Export what testers verified, in the formats auditors and buyers read.",
            discussion: "The exports name testers by pseudonym only; a tester who withdrew is 'withdrawn'.",
            subcommands: [export(), report()])
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
            context.console.write(.output, try context.api.text(APIClient.path("/v1/fixes", invocation.argument("fix"), "/evidence"),
                                                                query: [("revision", invocation.value("revision"))], accept: "application/ld+json"))
        }
    }

    static func report() -> Command {
        Command(
            name: "report", abstract: "Print an Accessibility Conformance Report of fixes, or of those released in a period, as OpenACR YAML.",
            discussion: """
                Each WCAG 2.2 criterion gets the level its latest verdicts give: supports, partially-supports, does-not-support, or not-evaluated \
                where no tester verified it. Redirect it to a file, such as \
                'vouch evidence report --fixes a,b --product "Example TV" --format openacr > acr.yaml'.
                """,
            options: [
                .single("format", "format", help: "The format: openacr (OpenACR YAML, catalog 2.5-edition-wcag-2.2-508-eu-en), or markdown.",
                        required: true, allowed: ["openacr", "markdown"]),
                .single("fixes", "keys", help: "The fixes the report covers, their keys separated by commas."),
                .single("released-from", "day", help: "Instead of --fixes: the fixes released on or after this day (YYYY-MM-DD, UTC)."),
                .single("released-to", "day", help: "Instead of --fixes: the fixes released on or before this day (YYYY-MM-DD, UTC)."),
                .single("product", "name", help: "The product's name as the report shows it; vouchd's report.product_name when not given."),
                .single("product-version", "version", help: "The product's version, such as 5.4.1."),
            ]
        ) { context in
            let invocation = context.invocation
            let query: [(String, String?)] = [
                ("fixes", invocation.value("fixes")), ("released_from", invocation.value("released-from")), ("released_to", invocation.value("released-to")),
                ("product_name", invocation.value("product")), ("product_version", invocation.value("product-version")),
                ("format", invocation.value("format")),
            ]
            let accept = invocation.value("format") == "markdown" ? "text/markdown" : "application/yaml"
            context.console.write(.output, try context.api.text("/v1/reports/acr", query: query, accept: accept))
        }
    }
}
