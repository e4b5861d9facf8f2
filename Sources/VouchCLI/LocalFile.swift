import Foundation

/// Reading and writing the user's own files, with the system's plain reason ("No such file or directory") when it fails.
enum LocalFile {
    static func read(_ path: String) throws(CommandFailure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        // A file that cannot be opened is a wrong argument (64), like a misspelt option.
        guard descriptor >= 0 else { throw failure("Cannot read \(path)", exitCode: .usage) }
        defer { close(descriptor) }
        return try readAll(descriptor, name: path)
    }

    static func readAll(_ descriptor: Int32, name: String) throws(CommandFailure) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw failure("Cannot read \(name)") }
            if count == 0 { return bytes }
            bytes += buffer[..<count]
        }
    }

    /// Creates or replaces the file with mode 0600 before any byte is written, so the data is never readable by others.
    static func writePrivate(_ text: String, to path: String) throws(CommandFailure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("Cannot write \(path)") }
        defer { close(descriptor) }
        // An existing file keeps its old mode through O_CREAT; narrow it too.
        guard fchmod(descriptor, 0o600) == 0 else { throw failure("Cannot make \(path) private") }
        try write(text, to: descriptor, name: path)
    }

    /// Replaces the file in one step (a new file beside it, renamed over it), so a program watching it never reads
    /// half of it. The file keeps the permissions it had; a new one is readable only by the user.
    static func replace(_ path: String, with text: String) throws(CommandFailure) {
        var status = stat()
        let mode = stat(path, &status) == 0 ? mode_t(status.st_mode & 0o777) : 0o600
        let temporary = path + ".vouch-\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("Cannot write \(temporary)") }
        var renamed = false
        defer {
            close(descriptor)
            if !renamed { unlink(temporary) }
        }
        try write(text, to: descriptor, name: temporary)
        guard fchmod(descriptor, mode) == 0, fsync(descriptor) == 0 else { throw failure("Cannot write \(temporary)") }
        guard rename(temporary, path) == 0 else { throw failure("Cannot replace \(path)") }
        renamed = true
    }

    private static func write(_ text: String, to descriptor: Int32, name: String) throws(CommandFailure) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw failure("Cannot write \(name)") }
            bytes = bytes.dropFirst(written)
        }
    }

    /// `message` and the reason in `errno`.
    private static func failure(_ message: String, exitCode: ExitCode = .failure) -> CommandFailure {
        CommandFailure(exitCode, "\(message): \(String(cString: strerror(errno))).")
    }
}
