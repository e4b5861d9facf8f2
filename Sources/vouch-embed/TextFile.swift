#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads the UTF-8 text to embed and writes the generated source.
enum TextFile {
    static func read(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw EmbedError("cannot read \(path)")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw EmbedError("\(path) is not UTF-8 text; only UTF-8 can be embedded as a Swift string")
        }
        return text
    }

    /// Leaves an unchanged file alone, so its timestamp stays and the target is not compiled again.
    static func writeIfChanged(_ text: String, to path: String) throws {
        if FileManager.default.contents(atPath: path) == Data(text.utf8) { return }
        try write(text, to: path)
    }

    /// Replaces the file (a new inode and modification time, even when the text is the same).
    static func write(_ text: String, to path: String) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw EmbedError("cannot write \(path): \(error)")
        }
    }
}
