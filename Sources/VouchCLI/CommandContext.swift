/// What a command's action works with: its parsed command line, the server, and where to write.
struct CommandContext {
    let invocation: Invocation
    let api: APIClient
    let output: OutputFormatter

    /// The terminal, for the commands that ask a person questions.
    var console: Console { output.console }
}
