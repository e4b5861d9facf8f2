import Foundation
import PackagePlugin

/// Compiles `openapi/vouch.openapi.json` into the target as `OpenAPIDocument.json`, so vouchd serves the
/// document without the source tree. The file lies outside the target's folder, so it is found from the
/// package directory and declared as the command's input: editing it rebuilds the target.
@main
struct EmbedOpenAPIDocument: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let document = context.package.directoryURL.appending(path: "openapi/vouch.openapi.json")
        let output = context.pluginWorkDirectoryURL.appending(path: "OpenAPIDocument.swift")
        return [
            .buildCommand(
                displayName: "Embedding openapi/vouch.openapi.json in \(target.name)",
                executable: try context.tool(named: "vouch-embed").url,
                arguments: ["openapi"] + [document, output].map { $0.path(percentEncoded: false) },
                inputFiles: [document],
                outputFiles: [output])
        ]
    }
}
