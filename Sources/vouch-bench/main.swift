import Foundation

// Top-level code is @MainActor: hand over to nonisolated code at once (see shared/C-INTEROP.md).
exit(BenchCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
