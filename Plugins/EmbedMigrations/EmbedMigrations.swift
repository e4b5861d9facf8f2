import Foundation
import PackagePlugin

/// Compiles every `Schema/NNNN_name.sql` into the target as `EmbeddedMigrations.all`, so the installed vouchd
/// migrates its database without the source tree.
///
/// The tool lists `Schema/` when it runs, not when SwiftPM plans the build, and it runs on every build. SwiftPM
/// keeps its plan, and so this plugin's answer, until a target's file list or Package.swift changes: a list of
/// `.sql` files declared as inputs would miss a migration added since, and one deleted (a branch switch) would
/// stop the build with "missing inputs". A prebuild command runs every time but may not use a tool built from
/// this package. So this build command declares a marker file that the tool rewrites after each run: the
/// marker has always changed since the last build, so SwiftPM runs the tool again, which costs a few
/// milliseconds, and the tool rewrites the Swift file only when its text changes, so VouchStore is compiled
/// again only then.
@main
struct EmbedMigrations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let schema = context.package.directoryURL.appending(path: "Schema")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        let marker = context.pluginWorkDirectoryURL.appending(path: "run-again.marker")
        // A declared input must exist before the first build, or SwiftPM reports it missing.
        if !FileManager.default.fileExists(atPath: marker.path(percentEncoded: false)) {
            try Data().write(to: marker)
        }
        return [
            .buildCommand(
                displayName: "Embedding Schema/*.sql in \(target.name)",
                executable: try context.tool(named: "vouch-embed").url,
                arguments: ["migrations"] + [schema, output, marker].map { $0.path(percentEncoded: false) },
                inputFiles: [marker],
                outputFiles: [output])
        ]
    }
}
