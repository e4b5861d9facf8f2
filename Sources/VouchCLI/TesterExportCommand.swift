import Foundation
import VouchDomain
import VouchJSON

/// `vouch tester export ID [--output FILE]`: everything Vouch holds about one tester, as JSON (GDPR Art. 15 and 20).
enum TesterExportCommand {
    static func command() -> Command {
        Command(
            name: "export", abstract: "Print everything Vouch holds about a tester, as JSON, or write it to a file.",
            discussion: "The export holds personal data: the tester's profile, enrollments, feedback and tokens (never their secrets).",
            arguments: [TesterCommands.idArgument],
            options: [.single("output", "file", help: "Write the JSON to this file, readable only by you (mode 0600), instead of printing it.")]
        ) { context in
            let id = context.invocation.argument("id")
            let export = try context.api.get(APIClient.path("/v1/testers", id, "/export"))
            let text = JSONWriter.string(export, pretty: true) + "\n"
            guard let file = context.invocation.value("output") else {
                context.console.write(.output, text)
                return
            }
            let path = URL(fileURLWithPath: file).standardizedFileURL.path
            try LocalFile.writePrivate(text, to: path)
            context.console.output("Tester \(ShortID.say(id))'s data is written to \(path), readable only by you.")
            context.console.output("It holds personal data: keep it safe, and delete it once it has been handed over.")
        }
    }
}
