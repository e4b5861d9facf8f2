import Foundation
import VouchJSON

/// `vouch fix criteria KEY [--min-testers-passed N] …`: a fix's own criteria, in place of the server's defaults.
enum FixCriteriaCommand {
    /// The options in the API's order, each with its field name (the option's name in snake_case).
    static let options: [CommandOption] = [
        .single("min-testers-passed", "n", help: "How many distinct testers must have passed the current revision.", range: 0...1_000),
        .list("required-assistive-tech", "platform:technology",
              help: "An assistive technology that a passing tester must have used, with its platform, such as ios:voiceover or android:talkback. "
                  + "Give \"\" to require none."),
        .single("max-blocking", "n", help: "How many blocking reports (severity serious or critical, or a regression) are allowed.", range: 0...1_000),
        .single("min-pass-ratio", "ratio", help: "The share of passed verdicts among passed and failed ones, from 0 to 1, such as 0.8."),
        .single("min-soak", "duration", help: "How long the current revision must have been in testing, such as 90s, 15m, 24h or 7d."),
        .single("approvals-required", "n", help: "How many release managers other than the author must approve.", range: 1...100),
    ]

    static func command() -> Command {
        Command(
            name: "criteria", abstract: "Show or set a fix's own promotion criteria, in place of the server's defaults.",
            discussion: """
                The options given become the fix's criteria overrides and replace any set before: a criterion not given follows the server's default again. \
                --reset removes every override. With no option, nothing changes. Either way, the overrides are printed, then the fix's status as 'vouch status' prints it.

                Example: vouch fix criteria tv-channel-selector-labels --min-testers-passed 3 --required-assistive-tech ios:voiceover,android:talkback --min-soak 48h
                """,
            arguments: [FixCommands.keyArgument],
            options: options + [.flag("reset", help: "Remove every override: the fix follows the server's defaults again.")]
        ) { context in
            let invocation = context.invocation
            let key = invocation.argument("key")
            let body = try overrides(from: invocation)
            if invocation.flag("reset") && !body.members.isEmpty {
                throw UsageError("Give either --reset or criteria to set, not both.", commandPath: invocation.path)
            }
            let status: JSONValue
            let overrides: JSONValue
            if body.members.isEmpty && !invocation.flag("reset") {
                overrides = try context.api.get(APIClient.path("/v1/fixes", key))["criteria"] ?? .null
                status = try context.api.get(APIClient.path("/v1/fixes", key, "/status"))
            } else {
                status = try context.api.put(APIClient.path("/v1/fixes", key, "/criteria"), body: body)
                overrides = .object(body)
            }
            context.output.emit(status) { status in
                ["Criteria overrides: \(OutputFormatter.criteriaOverrides(overrides))"] + OutputFormatter.status(status)
            }
        }
    }

    /// The overrides given on the command line, and only those, with the API's names and types.
    static func overrides(from invocation: Invocation) throws(UsageError) -> JSONObject {
        var body = JSONObject()
        for option in options {
            let field = option.name.replacingOccurrences(of: "-", with: "_")
            switch option.name {
            case "required-assistive-tech":
                if let technologies = invocation.list(option.name) { body[field] = .strings(technologies) }
            case "min-soak":
                if let duration = invocation.value(option.name) { body[field] = .string(duration) }
            case "min-pass-ratio":
                guard let text = invocation.value(option.name) else { continue }
                guard let ratio = Double(text), ratio.isFinite, (0...1).contains(ratio) else {
                    throw UsageError("Invalid value '\(text)' for '\(option.valueSynopsis)': give a number from 0 to 1, such as 0.8.", commandPath: invocation.path)
                }
                body[field] = .number(ratio)
            default:
                if let number = invocation.integer(option.name) { body[field] = .int(number) }
            }
        }
        return body
    }
}
