import Foundation
import Testing
@testable import vouch_embed

/// The literal's value must be the text itself, whatever the text holds; a compiler is the judge.
struct RawStringLiteralTests {
    /// Texts that would end, escape or interpolate in a literal with too few `#`, or that a multi-line literal
    /// would change (line endings, control characters, leading and trailing line feeds).
    static let awkwardTexts: [String] = [
        "",
        "\n",
        "\n\nstarts and ends with blank lines\n\n",
        "{\"$ref\": \"#/components/schemas/Fix\"}\n",
        "closes early: \"\"\" and \"\"\"# and \"\"\"## and \"\"\"###",
        "interpolates: \\(x) \\#(x) \\##(x) \\###n and a line ending in a backslash \\\nand \\#\nthen",
        "CR LF\r\nlone CR\rtab\tNUL\u{0}escape\u{1B}delete\u{7F}",
        "\u{FEFF}byte order mark, e\u{301} combining, 🧑‍🦯, line separator\u{2028}end",
        "   indented\n\t\ttabs\n   \ntrailing spaces   ",
    ]

    @Test(arguments: [("plain", 0), ("\"#", 1), ("\\##", 2), ("\"\"\"###x", 3), ("#### \"#", 1), ("\"a###", 0)])
    func delimiterOutnumbersEveryHashRunAfterAQuoteOrBackslash(text: String, longestRun: Int) {
        let literal = RawStringLiteral(text)
        #expect(literal.longestHashRunAfterQuoteOrBackslash == longestRun)
        #expect(literal.delimiter == String(repeating: "#", count: longestRun + 1))
    }

    @Test func controlCharactersButTabAndLineFeedAreEscaped() {
        let source = RawStringLiteral("a\r\nb\tc\u{0}").source
        #expect(source == "#\"\"\"\na\\#u{D}\nb\tc\\#u{0}\n\"\"\"#")
    }

    @Test func compiledLiteralsEqualTheirTexts() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vouch-embed-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let program = "let texts: [String] = [\n"
            + Self.awkwardTexts.map { RawStringLiteral($0).source + ",\n" }.joined()
            + "]\nfor text in texts { print(text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: \" \")) }\n"
        let sourceFile = directory.appendingPathComponent("main.swift")
        try program.write(to: sourceFile, atomically: true, encoding: .utf8)
        let executable = directory.appendingPathComponent("literals")

        let compiler = try Self.run("/usr/bin/env", ["swiftc", "-Onone", "-o", executable.path, sourceFile.path])
        try #require(compiler.status == 0, "swiftc refused the generated literals:\n\(compiler.output)")
        let printed = try Self.run(executable.path, [])
        let expected = Self.awkwardTexts.map { $0.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ") + "\n" }
        #expect(printed.output == expected.joined())
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
