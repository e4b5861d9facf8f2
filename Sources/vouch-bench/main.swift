import Foundation

// Top-level code is @MainActor: hand over to nonisolated code at once (see docs/architecture.md, "Callbacks, @MainActor and Unmanaged").
exit(BenchCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
