import Foundation
import VouchDaemon

// Top-level code is @MainActor; everything runs in nonisolated VouchdCommand (see docs/architecture.md, "Callbacks, @MainActor and Unmanaged").
exit(VouchdCommand.main(arguments: CommandLine.arguments))
