import VouchJSON

/// `vouch fix promote KEY` and `vouch fix retry-promotion KEY`: the step from testing to everyone, asked for by hand.
enum FixPromotionCommands {
    static func all() -> [Command] {
        [
            command("promote", abstract: "Promote a fix whose criteria are met: Vouch calls the webhooks, and the fix is released once every required endpoint succeeds.",
                    discussion: "The server promotes a fix by itself once every criterion is met; this asks for it now, and is refused with each unmet criterion otherwise."),
            command("retry-promotion", abstract: "Promote a fix again after its promotion failed, once the webhook receivers are fixed.",
                    discussion: "The criteria must still be met, as for 'promote'."),
        ]
    }

    private static func command(_ name: String, abstract: String, discussion: String) -> Command {
        Command(name: name, abstract: abstract, discussion: discussion + " See them with 'vouch status <key>'.", arguments: [FixCommands.keyArgument]) { context in
            let key = context.invocation.argument("key")
            let fix = try promote(key, action: name, api: context.api)
            context.output.emit(fix) { fix in
                var lines = [OutputFormatter.fixState(fix)]
                if OutputFormatter.text(fix, "state") == "promoting" {
                    lines.append("The webhooks are being called; the fix is released once every required endpoint answers with success. "
                                 + "Follow it with 'vouch fix show \(key)'.")
                }
                return lines
            }
        }
    }

    private static func promote(_ key: String, action: String, api: APIClient) throws(CommandFailure) -> JSONValue {
        do {
            return try api.post(APIClient.path("/v1/fixes", key, "/\(action)"))
        } catch where error.exitCode == .rejectedInput && !error.details.isEmpty {
            // A 409 whose errors name the unmet criteria, one line each under the server's detail.
            var failure = error
            failure.details.append("The fix was not promoted; see every criterion with 'vouch status \(key)'.")
            throw failure
        }
    }
}
