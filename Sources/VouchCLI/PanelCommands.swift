import VouchJSON

/// `vouch panel create|list|show|delete|add|remove`: named groups of testers ("VoiceOver on iOS"), enrolled in a fix at
/// once with 'vouch enroll <fix> --panel <panel>' (docs/invitations.md, "Panels").
enum PanelCommands {
    static let panelArgument = WebhookCommands.idArgument(name: "panel", help: "The panel's id, such as p_4w9tedpdf8fc, from 'vouch panel list'.",
                                                          example: "p_4w9tedpdf8fc")

    static func group() -> Command {
        Command(
            name: "panel", abstract: "Make named groups of testers, such as 'VoiceOver on iOS', and change who is in them.",
            discussion: """
                Enrolling a panel in a fix ('vouch enroll <fix> --panel <panel>') enrolls the testers in it who have not withdrawn, \
                as they are at that moment; an invitation can add the person who joins to panels ('vouch tester invite --panel'). \
                Being in a panel may say which assistive technology someone uses: only admins and maintainers see panels, and a \
                tester who withdraws leaves every panel.
                """,
            subcommands: [create(), list(), show(), delete(), add(), remove()])
    }

    static func create() -> Command {
        Command(
            name: "create", abstract: "Make an empty panel.",
            discussion: "Example: vouch panel create --name \"VoiceOver on iOS\" --description \"iPhone users who rely on VoiceOver every day\"",
            options: [
                .single("name", "text", help: "What its testers have in common, up to 100 characters; no two panels share a name, whatever the case.",
                        required: true),
                .single("description", "text", help: "A longer note for the maintainers, up to 1000 characters."),
            ]
        ) { context in
            var body: JSONObject = ["name": .string(context.invocation.value("name") ?? "")]
            if let description = context.invocation.value("description") { body["description"] = .string(description) }
            let panel = try context.api.post("/v1/panels", body: body)
            context.output.emit(panel) { panel in
                let id = OutputFormatter.text(panel, "id")
                return ["Panel \(id) is created: \(OutputFormatter.text(panel, "name")).",
                        "Next: add testers with 'vouch panel add \(id) <tester>'."]
            }
        }
    }

    static func list() -> Command {
        Command(name: "list", abstract: "List panels by name, with how many testers each has.") { context in
            let answer = try context.api.get("/v1/panels")
            context.output.emit(answer) { answer in
                OutputFormatter.listLines((answer["panels"]?.arrayValue ?? [], nil), OutputFormatter.panelLine, "panel", "panels")
            }
        }
    }

    static func show() -> Command {
        Command(name: "show", abstract: "Show a panel and every tester in it.", arguments: [panelArgument]) { context in
            let panel = try context.api.get(APIClient.path("/v1/panels", context.invocation.argument("panel")))
            context.output.emit(panel, OutputFormatter.panelDetails)
        }
    }

    static func delete() -> Command {
        Command(
            name: "delete", abstract: "Delete a panel.",
            discussion: "Its testers stay testers, and stay enrolled in the fixes the panel was enrolled in. Invitations that name it add nobody to it.",
            arguments: [panelArgument]
        ) { context in
            let panel = try context.api.delete(APIClient.path("/v1/panels", context.invocation.argument("panel")))
            context.output.emit(panel) { panel in
                ["Panel \(OutputFormatter.text(panel, "id")) (\(OutputFormatter.text(panel, "name"))) is deleted; its testers stay."]
            }
        }
    }

    static func add() -> Command {
        Command(
            name: "add", abstract: "Add testers to a panel.",
            discussion: """
                Testers added later are not enrolled in the fixes the panel was enrolled in before: enroll the panel again.

                Example: vouch panel add p_4w9tedpdf8fc t_4w9tedpdf8fc t_hc30sjq2k9vd
                """,
            arguments: [
                panelArgument,
                CommandArgument(name: "tester", help: "A tester's id, such as t_4w9tedpdf8fc; give several to add them all.", repeats: true,
                                problem: TesterCommands.idProblem),
            ]
        ) { context in
            let invocation = context.invocation
            guard !invocation.argumentList("tester").isEmpty else {
                throw UsageError("Missing expected argument '<tester>'.", commandPath: invocation.path)
            }
            let panel = try context.api.post(APIClient.path("/v1/panels", invocation.argument("panel"), "/members"),
                                             body: ["testers": .strings(invocation.argumentList("tester"))])
            context.output.emit(panel) { panel in
                let added = (panel["added"]?.arrayValue ?? []).compactMap(\.stringValue)
                return ["Added: \(added.isEmpty ? "none; every tester given was in the panel already" : OutputFormatter.shortTesters(added))",
                        OutputFormatter.panelSize(panel)]
            }
        }
    }

    static func remove() -> Command {
        Command(
            name: "remove", abstract: "Take a tester out of a panel.",
            discussion: "She stays enrolled in the fixes she was enrolled in; 'vouch enroll <fix> --remove <tester>' ends that.",
            arguments: [panelArgument, CommandArgument(name: "tester", help: "The tester's id, such as t_4w9tedpdf8fc.", problem: TesterCommands.idProblem)]
        ) { context in
            let invocation = context.invocation
            let panel = try context.api.delete(APIClient.path(APIClient.path("/v1/panels", invocation.argument("panel"), "/members"), invocation.argument("tester")))
            context.output.emit(panel) { panel in
                ["Removed: \(OutputFormatter.shortTesters([invocation.argument("tester")]))", OutputFormatter.panelSize(panel)]
            }
        }
    }
}
