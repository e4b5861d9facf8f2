import Foundation
import VouchJSON

/// `vouch feedback submit FIX`: one record from options (asking on a terminal for what is missing), or many from a JSON file.
enum FeedbackSubmitCommand {
    static let file = CommandOption.single("file", "file",
                                           help: "A JSON file holding one feedback record or an array of them, with the API's field names; "
                                               + "all are recorded or none. Give - to read standard input.")

    static func command() -> Command {
        Command(
            name: "submit", abstract: "Record a tester's feedback on the fix's current revision.",
            discussion: """
                Give the fields as options, or many records in a JSON file with --file. On a terminal, the required options left out are asked for, \
                one question per line, with choices in words, numbered, answered by number, by the words or by name; then what was heard, \
                whether anything else broke, and a comment, each unless given. The feedback is read back and sent only after you say yes.

                Example: vouch feedback submit tv-channel-selector-labels --tester t_4w9tedpdf8fc --verdict passed --task-outcome completed_with_workaround \
                --severity minor --platform ios --os-version 18.2 --app-build "5.4.1 (412)" --assistive-tech voiceover --heard "NHK, button, selected" \
                --comment "Some issues, but usable"
                """,
            arguments: [FeedbackCommands.fixArgument],
            options: FeedbackFields.options + [file]
        ) { context in
            let invocation = context.invocation
            let fix = invocation.argument("fix")
            let path = APIClient.path("/v1/fixes", fix, "/feedback")
            if let file = invocation.value("file") {
                let given = FeedbackFields.options.filter { invocation.values[$0.name] != nil || invocation.flag($0.name) }.map { "'\($0.spelledName)'" }
                guard given.isEmpty else {
                    throw UsageError("Give the feedback either in --file or as options, not both; remove \(given.joined(separator: ", ")).", commandPath: invocation.path)
                }
                try submitFile(file, to: path, fix: fix, context)
                return
            }
            var entry = FeedbackEntry(invocation: invocation)
            if !entry.missing.isEmpty {
                guard context.console.isInteractive else { throw UsageError.missingOptions(entry.missing.map(\.option), commandPath: invocation.path) }
                try FeedbackInterview(console: context.console).complete(&entry, fix: fix)
            }
            let record = try context.api.submit(path, body: entry.body)
            context.output.emit(record, OutputFormatter.recordedFeedback)
        }
    }

    /// Sends the file's records as one request: the server stores all of them or none, and names every bad field by record index.
    private static func submitFile(_ file: String, to path: String, fix: String, _ context: CommandContext) throws(CommandFailure) {
        let name = file == "-" ? "standard input" : "the file \(file)"
        let bytes = file == "-" ? try LocalFile.readAll(STDIN_FILENO, name: name) : try LocalFile.read(file)
        var body: JSONValue
        do {
            body = try JSONParser.parse(bytes)
        } catch {
            throw CommandFailure(.rejectedInput, "\(name.prefix(1).uppercased() + name.dropFirst()) is not JSON: \(error).",
                                 details: ["Give one feedback record as a JSON object, or several as an array of objects."])
        }
        // Records that do not say how they arrived arrived through the CLI.
        switch body {
        case .object(let record): body = .object(markedAsCLI(record))
        case .array(let records): body = .array(records.map { $0.objectValue.map { .object(markedAsCLI($0)) } ?? $0 })
        default: break
        }
        let answer: JSONValue
        do {
            answer = try context.api.submit(path, body: body)
        } catch where error.exitCode == .rejectedInput && !error.details.isEmpty {
            var failure = error
            failure.details.append("Nothing was recorded: the records of a file are recorded all together or not at all.")
            throw failure
        }
        context.output.emit(answer) { answer in
            guard let records = answer["feedback"]?.arrayValue else { return OutputFormatter.recordedFeedback(answer) }
            let count = records.count == 1 ? "1 feedback record is" : "\(records.count) feedback records are"
            return ["\(count) recorded for fix \(fix):"] + records.map(OutputFormatter.feedbackLine)
        }
    }

    private static func markedAsCLI(_ record: JSONObject) -> JSONObject {
        var record = record
        if record["channel"] == nil { record["channel"] = .string("cli") }
        return record
    }
}
