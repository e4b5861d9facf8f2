import VouchDomain
import VouchJSON

/// `vouch token create|list|revoke`: API tokens, each with a name and one role.
enum TokenCommands {
    static let roles = Role.allCases.map(\.rawValue)

    static func group() -> Command {
        Command(
            name: "token", abstract: "Create, list and revoke API tokens.",
            discussion: """
                Each token has a name (what it is for), a principal (the person or system it is issued to; four-eyes and one-vote rules \
                compare principals) and one role: admin (everything), release_manager (approve, reject, promote, pause, resume, roll back, set the rollout, read all), \
                maintainer (fixes, targets, testers, enrollments and feedback on a tester's behalf; read all), tester (bound to one tester: \
                read the fixes they are enrolled in, submit their own feedback) or sdk (flag evaluation only, for apps). Only an admin manages tokens.
                """,
            subcommands: [create(), list(), revoke()])
    }

    static func create() -> Command {
        Command(
            name: "create", abstract: "Create a token; its secret is shown once.",
            discussion: """
                Example: vouch token create --name rita-laptop --principal "Rita Example" --role release_manager

                Example: vouch token create --name ana-phone --role tester --tester t_4w9tedpdf8fc

                Example: vouch token create --name android-app --role sdk --no-event-streams

                Example: vouch token create --name flagd-sync --role sdk --flag-definitions
                """,
            options: [
                .single("name", "name", help: "What the token is for, such as ios-app or rita-laptop; without --principal, also who it is issued to.",
                        required: true),
                .single("role", "role", help: "What the token may do.", required: true, allowed: roles),
                .single("principal", "name", help: "The person or system the token is issued to; without it, the token's name. "
                    + "Not with --role tester: a tester token is issued to its tester."),
                .single("tester", "id", help: "The tester a tester token belongs to, such as t_4w9tedpdf8fc. Required with --role tester, refused with any other role."),
                .single("email", "address", help: "The principal's address for notifications by email, such as rita@example.org. Not with --role tester: "
                    + "a tester's address is her own (vouch tester update --email)."),
                .flag("no-event-streams", help: "Offer this token no push: its OFREP bulk answers carry no eventStreams member. For apps whose "
                    + "OpenFeature provider refuses members it does not know, such as the Kotlin OFREP provider 0.1; they poll instead."),
                .flag("flag-definitions", help: "Let this sdk token read every flag definition (/flagd/v1/flags.json), which lists every "
                    + "targeted key: for a flagd's sync, never for a token built into an app. Only with --role sdk."),
            ]
        ) { context in
            let invocation = context.invocation
            let role = invocation.value("role") ?? ""
            let tester = invocation.value("tester")
            if role == Role.tester.rawValue, tester == nil {
                throw UsageError("A tester token belongs to one tester: give '--tester <id>'.", commandPath: invocation.path)
            }
            if role != Role.tester.rawValue, tester != nil {
                throw UsageError("Only a token with the role tester belongs to a tester; remove '--tester' or use '--role tester'.", commandPath: invocation.path)
            }
            let principal = invocation.value("principal")
            if role == Role.tester.rawValue, principal != nil {
                throw UsageError("A tester token is issued to its tester; remove '--principal'.", commandPath: invocation.path)
            }
            var body: JSONObject = ["name": .string(invocation.value("name") ?? ""), "role": .string(role)]
            if let principal { body["principal"] = .string(principal) }
            if let tester { body["tester"] = .string(tester) }
            if let email = invocation.value("email") { body["email"] = .string(email) }
            if invocation.flag("no-event-streams") { body["event_streams"] = .bool(false) }
            if invocation.flag("flag-definitions") { body["flag_definitions"] = .bool(true) }
            let token = try context.api.post("/v1/tokens", body: body)
            context.output.emit(token, OutputFormatter.createdToken)
        }
    }

    static func list() -> Command {
        Command(name: "list", abstract: "List tokens, revoked ones too; never their secrets.", options: ListPager.options("tokens")) { context in
            let page = try ListPager(api: context.api, path: "/v1/tokens", itemsKey: "tokens").fetch(query: [], invocation: context.invocation)
            context.output.emit(page.answer) { _ in OutputFormatter.listLines((page.items, page.next), OutputFormatter.tokenLine, "token", "tokens") }
        }
    }

    static func revoke() -> Command {
        Command(
            name: "revoke", abstract: "Revoke a token: the server refuses it from now on.",
            arguments: [CommandArgument(name: "id", help: "The token's id, such as tok_4w9tedpdf8fce6h6, from 'vouch token list'.") { id in
                !id.isEmpty && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") } ? nil : "a token id is letters, digits and '_', such as tok_4w9tedpdf8fce6h6"
            }]
        ) { context in
            let token = try context.api.delete(APIClient.path("/v1/tokens", context.invocation.argument("id")))
            context.output.emit(token) { token in
                ["Token \(OutputFormatter.short(token, "id")) (\(OutputFormatter.text(token, "name"))) is revoked."]
            }
        }
    }
}
