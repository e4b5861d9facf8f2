import VouchJSON

/// `vouch fix rollout KEY --phased [--steps …] [--interval …]` or `--all-at-once`: how a promoted fix reaches everyone.
enum FixRolloutCommand {
    static func command() -> Command {
        Command(
            name: "rollout", abstract: "Choose how a fix reaches everyone once promoted: in phases, a percentage of users at a time, or all at once.",
            discussion: """
                A phased rollout turns the fix on for a growing percentage of users, one step per interval; a user once in stays in. \
                Without --steps and --interval the server's defaults apply (1, 2, 5, 10, 20, 50 and 100 percent, one step a day, unless configured otherwise). \
                Set it before promotion: while the fix is a draft, testing, paused, rolled back, or after a failed promotion.

                Example: vouch fix rollout tv-channel-selector-labels --phased --steps 10,50,100 --interval 24h
                """,
            arguments: [FixCommands.keyArgument],
            options: [
                .flag("phased", help: "Roll out in phases."),
                .list("steps", "percent", help: "The percentages of users, rising to 100, such as 1,2,5,10,20,50,100. Only with --phased.", range: 1...100),
                .single("interval", "duration", help: "The time between steps, such as 90s, 15m, 24h or 7d. Only with --phased."),
                .flag("all-at-once", help: "Release to everyone at once, without phases."),
            ]
        ) { context in
            let invocation = context.invocation
            let phased = invocation.flag("phased")
            guard phased != invocation.flag("all-at-once") else {
                let message = phased ? "Give either --phased or --all-at-once, not both." : "Give --phased or --all-at-once."
                throw UsageError(message, commandPath: invocation.path)
            }
            let steps = invocation.list("steps")
            let interval = invocation.value("interval")
            if !phased && (steps != nil || interval != nil) {
                throw UsageError("--steps and --interval describe a phased rollout; use them with --phased, or leave them out.", commandPath: invocation.path)
            }
            var body: JSONObject = ["phased": .bool(phased)]
            if let steps { body["steps"] = .array(steps.compactMap(Int.init).map(JSONValue.int)) }
            if let interval { body["interval"] = .string(interval) }
            let fix = try context.api.put(APIClient.path("/v1/fixes", invocation.argument("key"), "/rollout"), body: body)
            context.output.emit(fix) { fix in
                let plan = fix["rollout"]?.objectValue == nil ? "to everyone at once" : OutputFormatter.rolloutPlan(fix["rollout"])
                return ["Once promoted, fix \(OutputFormatter.text(fix, "key")) will be released \(plan)."]
            }
        }
    }
}
