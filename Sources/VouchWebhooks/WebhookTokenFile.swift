import Foundation
import VouchDomain

/// A `github-dispatch` endpoint's token: the first line of a file in `webhooks.token_directory`, named by the
/// endpoint. Only the name is stored; the file is read at each attempt, so a rotated token is used at once, and the
/// token is never logged, stored or shown (docs/contracts.md, "Formats"). Files are named, never given as paths
/// (`WebhookFormat.tokenFileNameProblem`).
public enum WebhookTokenFile {
    /// The token, or why it cannot be read (which names the file, never its content).
    public static func read(_ name: String, in directory: String) -> Result<String, Unreadable> {
        guard !directory.isEmpty else {
            return .failure(Unreadable(description: "webhooks.token_directory is not set: github-dispatch webhooks read their token from a file there"))
        }
        if let problem = WebhookFormat.tokenFileNameProblem(name) { return .failure(Unreadable(description: problem)) }
        let path = (directory as NSString).appendingPathComponent(name)
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            return .failure(Unreadable(description: "the token file '\(name)' in webhooks.token_directory cannot be read"))
        }
        let token = text.split(separator: "\n", omittingEmptySubsequences: false).first.map { $0.trimmingCharacters(in: .whitespaces.union(.init(charactersIn: "\r"))) } ?? ""
        guard !token.isEmpty, token.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            return .failure(Unreadable(description: "the token file '\(name)' in webhooks.token_directory must hold the token, printable ASCII, on its first line"))
        }
        return .success(token)
    }

    public struct Unreadable: Error, CustomStringConvertible, Sendable {
        public var description: String
    }
}
