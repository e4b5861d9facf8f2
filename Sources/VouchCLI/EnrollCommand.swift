import VouchJSON

/// `vouch enroll FIX TESTER…` or `--panel PANEL`, `--remove TESTER…` and `--list`: while a fix is in testing, its flag is on for
/// its testers' keys.
enum EnrollCommand {
    static func command() -> Command {
        Command(
            name: "enroll", abstract: "Enroll testers in a fix, remove them, or list who is enrolled.",
            discussion: """
                While the fix is in testing, its flag is on for the targeting keys of every enrolled tester. \
                --panel enrolls the testers in a panel who have not withdrawn, as the panel is now ('vouch panel'). \
                'vouch enroll list <fix>' lists who is enrolled, as --list does.

                Example: vouch enroll tv-channel-selector-labels t_4w9tedpdf8fc

                Example: vouch enroll tv-channel-selector-labels --panel p_4w9tedpdf8fc

                Example: vouch enroll list tv-channel-selector-labels
                """,
            arguments: [
                CommandArgument(name: "fix", help: "The fix's flag key, such as tv-channel-selector-labels.", problem: FixCommands.keyProblem),
                CommandArgument(name: "tester", help: "A tester's id, such as t_4w9tedpdf8fc; give several to enroll or remove them all.", repeats: true,
                                problem: TesterCommands.idProblem),
            ],
            options: [
                .list("panel", "panel", help: "A panel whose testers to enroll, such as p_4w9tedpdf8fc; at most 50."),
                .flag("remove", help: "Remove the testers given from the fix instead of enrolling them."),
                .flag("list", help: "List the testers enrolled in the fix; 'vouch enroll list <fix>' does the same."),
            ],
            listWord: .flag("list")
        ) { context in
            let invocation = context.invocation
            let fix = invocation.argument("fix")
            let testers = invocation.argumentList("tester")
            let panels = invocation.list("panel") ?? []
            let path = APIClient.path("/v1/fixes", fix, "/enrollments")
            if !panels.isEmpty, invocation.flag("list") || invocation.flag("remove") {
                throw UsageError("--panel enrolls; it goes with neither --list nor --remove.", commandPath: invocation.path)
            }
            if invocation.flag("list") {
                guard !invocation.flag("remove") else { throw UsageError("Give either --list or --remove, not both.", commandPath: invocation.path) }
                guard testers.isEmpty else { throw UsageError("--list takes no tester ids; remove '\(testers[0])'.", commandPath: invocation.path) }
                let answer = try context.api.get(path)
                context.output.emit(answer) { answer in
                    let enrollments = answer["enrollments"]?.arrayValue ?? []
                    return enrollments.map(OutputFormatter.enrollmentLine) + [summary(fix: fix, count: enrollments.count, now: false)]
                }
                return
            }
            guard !testers.isEmpty || !panels.isEmpty else {
                let listing = fix == "list" ? "'vouch enroll list <fix>'" : "'vouch enroll list \(fix)'"
                throw UsageError("Missing expected argument '<tester>'. To list the testers enrolled, run \(listing).", commandPath: invocation.path)
            }
            if invocation.flag("remove") {
                try remove(testers, from: fix, path: path, context)
                return
            }
            var body: JSONObject = [:]
            if !testers.isEmpty { body["testers"] = .strings(testers) }
            if !panels.isEmpty { body["panels"] = .strings(panels) }
            let answer = try context.api.post(path, body: body)
            context.output.emit(answer) { answer in
                ["Enrolled: \(spokenTesters(answer["added"], empty: "none; every tester given was already enrolled"))",
                 summary(fix: fix, count: answer["enrollments"]?.arrayValue?.count ?? 0, now: true)]
            }
        }
    }

    /// One DELETE per tester; when one fails, what was removed before it is still told.
    private static func remove(_ testers: [String], from fix: String, path: String, _ context: CommandContext) throws(CommandFailure) {
        var removed: [String] = []
        var last = JSONValue.null
        for tester in testers {
            do {
                last = try context.api.delete(APIClient.path(path, tester))
                removed.append(tester)
            } catch {
                if !removed.isEmpty && !context.output.json { context.console.output("Removed: \(OutputFormatter.shortTesters(removed))") }
                throw error
            }
        }
        context.output.emit(last) { answer in
            ["Removed: \(OutputFormatter.shortTesters(removed))", summary(fix: fix, count: answer["enrollments"]?.arrayValue?.count ?? 0, now: true)]
        }
    }

    /// The testers just typed, said short: the person knows whom they meant.
    private static func spokenTesters(_ value: JSONValue?, empty: String) -> String {
        let ids = (value?.arrayValue ?? []).compactMap(\.stringValue)
        return ids.isEmpty ? empty : OutputFormatter.shortTesters(ids)
    }

    private static func summary(fix: String, count: Int, now: Bool) -> String {
        let verb = now ? "now has" : "has"
        switch count {
        case 0: return "Fix \(fix) \(verb) no enrolled testers."
        case 1: return "Fix \(fix) \(verb) 1 enrolled tester."
        default: return "Fix \(fix) \(verb) \(count) enrolled testers."
        }
    }
}
