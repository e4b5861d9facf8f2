import Foundation
import VouchServer

// Top-level code is @MainActor; everything runs in nonisolated VouchdCommand (see C-INTEROP.md).
exit(VouchdCommand.main(arguments: CommandLine.arguments))
