/// A command that ran but could not do its work: `Error: …` and any detail lines on stderr, and an exit code.
struct CommandFailure: Error {
    var exitCode: ExitCode
    /// The first line, without the `Error: ` prefix.
    var message: String
    /// Further lines, such as one `  field: message` line per rejected field.
    var details: [String]

    init(_ exitCode: ExitCode, _ message: String, details: [String] = []) {
        self.exitCode = exitCode
        self.message = message
        self.details = details
    }

    var lines: [String] { ["Error: \(message)"] + details }
}
