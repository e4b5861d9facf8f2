import VouchJSON

/// `vouch fix start|revise|pause|resume|abandon|rollback KEY`: one POST to `/v1/fixes/{key}/{action}` each.
enum FixLifecycleCommands {
    private struct Action {
        var name: String
        var abstract: String
        /// The option and body field that carry the person's words (`--note` for revise, `--reason` for rollback).
        var wordsOption: CommandOption?
    }

    private static let actions = [
        Action(name: "start", abstract: "Start testing a fix: its flag turns on for the keys it targets and stays off for everyone else."),
        Action(name: "revise", abstract: "Record a new revision of a fix after its implementation changed, such as a new build.",
               wordsOption: .single("note", "text", help: "What changed in this revision.")),
        Action(name: "pause", abstract: "Pause a fix: its flag turns off for everyone, at once."),
        Action(name: "resume", abstract: "Resume a paused fix, in the state it was paused from."),
        Action(name: "abandon", abstract: "Abandon a fix for good: its flag stays off for everyone."),
        Action(name: "rollback", abstract: "Roll back a released fix: its flag turns off for everyone.",
               wordsOption: .single("reason", "text", help: "Why the fix is rolled back.")),
    ]

    static func all() -> [Command] {
        actions.map { action in
            Command(name: action.name, abstract: action.abstract, arguments: [FixCommands.keyArgument],
                    options: action.wordsOption.map { [$0] } ?? []) { context in
                var body = JSONObject()
                if let option = action.wordsOption, let words = context.invocation.value(option.name) {
                    body[option.name] = .string(words)
                }
                let fix = try context.api.post(APIClient.path("/v1/fixes", context.invocation.argument("key"), "/\(action.name)"), body: body)
                context.output.emit(fix) { [OutputFormatter.fixState($0)] }
            }
        }
    }
}
