import Foundation

/// Where `vouch` writes and, on a terminal, reads: standard output for answers, help and questions,
/// standard error for errors, standard input for a person's answers.
struct Console {
    enum Stream {
        case output
        case error
    }

    let write: (Stream, String) -> Void
    /// One line of standard input without its line break; nil at the end of input.
    var readLine: () -> String? = { nil }
    /// Standard input and output are both terminals, so a person is there to answer questions.
    var isInteractive = false

    /// Writes `text` and a newline to standard output.
    func output(_ text: String) { write(.output, text + "\n") }

    /// Writes each line to standard error.
    func error(_ lines: [String]) { write(.error, lines.map { $0 + "\n" }.joined()) }

    /// Writes a question and leaves the cursor after it, so the answer is typed on the same line.
    func prompt(_ question: String) { write(.output, question + " ") }

    /// The process's own standard streams, written unbuffered so output and error keep their order.
    static var standard: Console {
        Console(
            write: { stream, text in
                let descriptor = stream == .output ? STDOUT_FILENO : STDERR_FILENO
                var bytes = Array(text.utf8)[...]
                while !bytes.isEmpty {
                    let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
                    if written < 0 && errno == EINTR { continue }
                    // A closed pipe or a full disk: there is nobody left to tell, so stop writing.
                    guard written > 0 else { return }
                    bytes = bytes.dropFirst(written)
                }
            },
            readLine: { Swift.readLine(strippingNewline: true) },
            isInteractive: isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1)
    }
}
