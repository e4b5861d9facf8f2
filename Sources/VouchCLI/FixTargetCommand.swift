import VouchJSON

/// `vouch fix target KEY [--add K…] [--remove K…]`: the targeting keys a fix is on for directly.
enum FixTargetCommand {
    static func command() -> Command {
        Command(
            name: "target", abstract: "List, add or remove the targeting keys a fix is on for directly, such as a tester's user id or a QA device.",
            discussion: "With neither --add nor --remove, lists the keys, as 'vouch fix target list <key>' does. "
                + "While the fix is in testing, its flag is on for these keys and off for everyone else.",
            arguments: [FixCommands.keyArgument],
            options: [
                .list("add", "targeting-key", help: "A targeting key to add: the app's stable user id."),
                .list("remove", "targeting-key", help: "A targeting key to remove."),
            ],
            listWord: .bare
        ) { context in
            let invocation = context.invocation
            let key = invocation.argument("key")
            let path = APIClient.path("/v1/fixes", key, "/targets")
            let add = invocation.list("add")
            let remove = invocation.list("remove")
            guard add != nil || remove != nil else {
                let answer = try context.api.get(path)
                context.output.emit(answer) { answer in
                    let targets = (answer["targets"]?.arrayValue ?? []).compactMap(\.stringValue)
                    return targets + [summary(key: key, count: targets.count, now: false)]
                }
                return
            }
            var body = JSONObject()
            if let add { body["add"] = .strings(add) }
            if let remove { body["remove"] = .strings(remove) }
            let answer = try context.api.post(path, body: body)
            context.output.emit(answer) { answer in
                var lines: [String] = []
                if add != nil { lines.append("Added: \(OutputFormatter.list(answer["added"], empty: "none; every key given was already targeted"))") }
                if remove != nil { lines.append("Removed: \(OutputFormatter.list(answer["removed"], empty: "none; no key given was targeted"))") }
                return lines + [summary(key: key, count: answer["targets"]?.arrayValue?.count ?? 0, now: true)]
            }
        }
    }

    private static func summary(key: String, count: Int, now: Bool) -> String {
        let verb = now ? "now targets" : "targets"
        switch count {
        case 0: return "Fix \(key) \(verb) no keys directly."
        case 1: return "Fix \(key) \(verb) 1 key."
        default: return "Fix \(key) \(verb) \(count) keys."
        }
    }
}
