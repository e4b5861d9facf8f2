#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#else
import Darwin
#endif

// The build-tool plugins in Plugins/ run this at build time; it is not installed.
do {
    try EmbedCommand.run(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    // SwiftPM shows the tool's standard error under the failed build step.
    let message = Array("vouch-embed: error: \(error)\n".utf8)
    _ = message.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(1)
}
