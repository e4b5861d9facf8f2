import Foundation
import PackagePlugin

/// Compiles the console's message catalogs, `Catalogs/*.txt`, into the target as `MessageKey` and each language's
/// texts, so the installed vouchd needs no source tree and a key missing from one language fails the build. Each
/// catalog is a declared input, so editing one rebuilds the target; a new language needs code (`Language`) and a new
/// file, and with the new file SwiftPM plans the build again.
@main
struct EmbedMessages: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let catalogs = context.package.directoryURL.appending(path: "Catalogs")
        let output = context.pluginWorkDirectoryURL.appending(path: "MessageKey.swift")
        let files = try FileManager.default.contentsOfDirectory(atPath: catalogs.path(percentEncoded: false))
            .filter { $0.hasSuffix(".txt") }.sorted().map { catalogs.appending(path: $0) }
        return [
            .buildCommand(
                displayName: "Embedding Catalogs/*.txt in \(target.name)",
                executable: try context.tool(named: "vouch-embed").url,
                arguments: ["messages"] + [catalogs, output].map { $0.path(percentEncoded: false) },
                inputFiles: files,
                outputFiles: [output])
        ]
    }
}
