import VouchJSON

/// `vouch eval KEY --key USER`: one OFREP evaluation, exactly as an app's OpenFeature provider makes it.
enum EvalCommand {
    static func command() -> Command {
        Command(
            name: "eval", abstract: "Evaluate a fix's flag for one user, as an app would.",
            discussion: "Sends the OpenFeature remote evaluation (OFREP) request an app sends, and prints the value, variant, reason, revision and state.",
            arguments: [CommandArgument(name: "flag", help: "The fix's flag key.", problem: FixCommands.keyProblem)],
            options: [.single("key", "targeting-key", help: "The user's targeting key: the app's stable user id. Without it, the flag is evaluated for nobody in particular.",
                              aliases: ["targeting-key"])]
        ) { context in
            let targetingKey = context.invocation.value("key")
            var evaluationContext = JSONObject()
            if let targetingKey { evaluationContext["targetingKey"] = .string(targetingKey) }
            let answer = try context.api.post(APIClient.path("/ofrep/v1/evaluate/flags", context.invocation.argument("flag")),
                                              body: ["context": .object(evaluationContext)])
            context.output.emit(answer) { OutputFormatter.evaluation($0, targetingKey: targetingKey) }
        }
    }
}
