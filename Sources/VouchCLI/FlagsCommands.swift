import Foundation
import VouchJSON

/// `vouch flags export --format flagd`: every fix's rules in another flag system's format (docs/flagd.md).
enum FlagsCommands {
    static func group() -> Command {
        Command(
            name: "flags", abstract: "Export every fix's flag rules for another flag system.",
            discussion: "A flagd can also fetch the same file itself: see docs/flagd.md.",
            subcommands: [export()])
    }

    static func export() -> Command {
        Command(
            name: "export", abstract: "Print every fix as a flagd flag definition (flagd's flags.json), or write it to a file.",
            discussion: """
                The file lists every targeted key, so keep it where only flagd reads it. With --output the file is replaced in one step \
                (a flagd watching it never reads half a file) and keeps the permissions it had; a new file is readable only by you. \
                Example: vouch flags export --format flagd --output /etc/flagd/vouch.flags.json
                """,
            options: [
                .single("format", "format", help: "The format: flagd (flagd's flag definitions, with JsonLogic targeting).", required: true,
                        allowed: ["flagd"]),
                .single("output", "file", help: "Write the definitions to this file instead of printing them."),
            ]
        ) { context in
            let text = try context.api.text("/flagd/v1/flags.json", accept: "application/json")
            let flags = FlagsCommands.flags(in: text)
            let notes = flags.compactMap { member in member.value["metadata"]?["vouchExact"]?.boolValue == false ? member.key : nil }.map { key in
                "Not the same in flagd: \(key). Its phased rollout began before Vouch bucketed as flagd does, so flagd turns it on "
                    + "for targeted keys only until the rollout ends."
            }
            guard let file = context.invocation.value("output") else {
                context.console.write(.output, text)
                context.console.error(notes)
                return
            }
            let path = URL(fileURLWithPath: file).standardizedFileURL.path
            try LocalFile.replace(path, with: text)
            context.console.output("Flag definitions for flagd written to \(path): \(flags.count) \(flags.count == 1 ? "fix" : "fixes").")
            for note in notes { context.console.output(note) }
        }
    }

    /// The file's flags by key; a flag whose `metadata.vouchExact` is false is not Vouch's exact answer for every key.
    static func flags(in text: String) -> [(key: String, value: JSONValue)] {
        guard case .object(let flags)? = (try? JSONParser.parse(text))?["flags"] else { return [] }
        return flags.members
    }
}
