import Foundation
import PackagePlugin

/// Compiles the consent texts, `Catalogs/consent/*.txt`, into the target as `EmbeddedConsentTexts.files`, so the
/// installed vouchd shows them without the source tree (docs/invitations.md, "Consent texts"). Each file is a declared
/// input, so editing one rebuilds the target; with a new file SwiftPM plans the build again.
@main
struct EmbedConsentTexts: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let directory = context.package.directoryURL.appending(path: "Catalogs/consent")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedConsentTexts.swift")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path(percentEncoded: false))
            .filter { $0.hasSuffix(".txt") }.sorted().map { directory.appending(path: $0) }
        return [
            .buildCommand(
                displayName: "Embedding Catalogs/consent/*.txt in \(target.name)",
                executable: try context.tool(named: "vouch-embed").url,
                arguments: ["consent"] + [directory, output].map { $0.path(percentEncoded: false) },
                inputFiles: files,
                outputFiles: [output])
        ]
    }
}
