import VouchJSON

/// `vouch eval KEY --key USER`: one OFREP evaluation, exactly as an app's OpenFeature provider makes it.
enum EvalCommand {
    static func command() -> Command {
        Command(
            name: "eval", abstract: "Evaluate a fix's flag for one user, as an app would.",
            discussion: """
                Sends the OpenFeature remote evaluation (OFREP) request an app sends, and prints the value, variant, reason, revision and state.

                With --watch, it then keeps the server's event stream open, as OFREP's web provider does, and asks again \
                after every change the server announces: one line, with the local time, each time this flag's answer \
                changes. It reconnects after the stream closes, pausing 1, 2 and then 5 seconds, and ends with an error \
                when the server stays out of reach. Control-C ends it.
                """,
            arguments: [CommandArgument(name: "flag", help: "The fix's flag key.", problem: FixCommands.keyProblem)],
            options: [.single("key", "targeting-key", help: "The user's targeting key: the app's stable user id. Without it, the flag is evaluated for nobody in particular.",
                              aliases: ["targeting-key"]),
                      .flag("watch", help: "Keep watching: print a line each time the answer changes. With --json, one JSON object per line.")]
        ) { context in
            let targetingKey = context.invocation.value("key")
            if context.invocation.flag("watch") {
                return try FlagWatch(flag: context.invocation.argument("flag"), targetingKey: targetingKey, api: context.api, output: context.output).run()
            }
            var evaluationContext = JSONObject()
            if let targetingKey { evaluationContext["targetingKey"] = .string(targetingKey) }
            let answer = try context.api.post(APIClient.path("/ofrep/v1/evaluate/flags", context.invocation.argument("flag")),
                                              body: ["context": .object(evaluationContext)])
            context.output.emit(answer) { OutputFormatter.evaluation($0, targetingKey: targetingKey) }
        }
    }
}
