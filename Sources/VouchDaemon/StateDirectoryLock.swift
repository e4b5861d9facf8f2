import Foundation

/// An exclusive `flock` on `DIR/vouchd.lock`, held while vouchd serves or restores, so two processes never
/// write one state directory and a restore cannot replace the database under a running daemon.
/// The kernel drops the lock when the process dies, so a crash leaves nothing to clean up.
final class StateDirectoryLock {
    private let descriptor: Int32

    init(stateDirectory: String) throws {
        let path = (stateDirectory as NSString).appendingPathComponent("vouchd.lock")
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw DaemonError("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            close(descriptor)
            throw DaemonError("another vouchd\(holder.isEmpty ? "" : " (process \(holder))") is using the state directory \(stateDirectory); stop it first")
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    deinit {
        close(descriptor)
    }
}
