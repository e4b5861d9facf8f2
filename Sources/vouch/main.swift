import Foundation
import VouchCLI

// Top-level code is @MainActor; everything runs in nonisolated VouchCLI (see docs/architecture.md, "Callbacks, @MainActor and Unmanaged").
exit(VouchCLI.main(arguments: CommandLine.arguments, environment: ProcessInfo.processInfo.environment))
