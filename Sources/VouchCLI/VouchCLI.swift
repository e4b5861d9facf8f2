import Foundation

/// The `vouch` command-line client: reads the arguments, runs one command against a Vouch server,
/// and answers with an exit status (docs/contracts.md, "CLI").
public enum VouchCLI {
    public static let version = "0.1.0"

    /// Runs `vouch` with the process's arguments (the first is the program's name) and returns the exit status.
    public static func main(arguments: [String], environment: [String: String]) -> Int32 {
        // `vouch fix list | head -1` closes the pipe early; the write then fails quietly instead of killing the process.
        signal(SIGPIPE, SIG_IGN)
        return run(Array(arguments.dropFirst()), environment: environment, console: .standard).rawValue
    }

    static func run(_ arguments: [String], environment: [String: String], console: Console) -> ExitCode {
        let root = CommandTree.root()
        let parser = CommandLineArguments(root: root, globalOptions: GlobalOptions.options)
        do {
            switch try parser.parse(arguments) {
            case .version:
                console.output("vouch \(version)")
            case .help(let path):
                console.output(HelpFormatter.help(for: path, in: root))
            case .run(let invocation):
                let globals = try GlobalOptions(invocation: invocation, environment: environment)
                let context = CommandContext(invocation: invocation, api: APIClient(server: globals.server, token: globals.token),
                                             output: OutputFormatter(console: console, json: globals.json))
                try invocation.command.action?(context)
            }
            return .success
        } catch let error as UsageError {
            console.error(error.lines(root: root))
            return .usage
        } catch let declined as Declined {
            console.output(declined.message)
            return .failure
        } catch let failure as CommandFailure {
            console.error(failure.lines)
            return failure.exitCode
        } catch {
            console.error(["Error: \(error)"])
            return .failure
        }
    }
}
