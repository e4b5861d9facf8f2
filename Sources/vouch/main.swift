import Foundation
import VouchCLI

// Top-level code is @MainActor; everything runs in nonisolated VouchCLI (see C-INTEROP.md).
exit(VouchCLI.main(arguments: CommandLine.arguments, environment: ProcessInfo.processInfo.environment))
