import Foundation
import VouchTestSupport

/// Another process holding an SQLite database's write lock: python3's sqlite3 module inside `BEGIN EXCLUSIVE`,
/// as an operator's shell or a backup script would, until `release()`.
final class WriteLockHolder {
    private let process = ChildProcess()
    private let input = Pipe()

    static let script = """
        import sqlite3, sys
        connection = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=5)
        connection.execute("BEGIN EXCLUSIVE")
        print("locked", flush=True)
        sys.stdin.readline()
        connection.execute("ROLLBACK")
        connection.close()
        """

    init(databasePath: String) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", WriteLockHolder.script, databasePath]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var said = ""
        while !said.contains("locked") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            said += String(decoding: chunk, as: UTF8.self)
        }
        guard said.contains("locked") else {
            process.waitUntilExit()
            throw FaultInjectionError("python3 could not take the write lock (exit \(process.terminationStatus))")
        }
    }

    /// Rolls the other process's transaction back and waits for it to end.
    func release() {
        guard process.isRunning else { return }
        input.fileHandleForWriting.write(Data("\n".utf8))
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}

/// A small tmpfs mounted on a fresh directory, to fill a disk without filling the machine's.
///
/// Mounting needs root (or CAP_SYS_ADMIN); where that is not allowed, `mount` returns nil with the reason.
final class SmallFileSystem {
    let path: String

    private init(path: String) {
        self.path = path
    }

    /// Mounts a tmpfs of `megabytes` MiB, or says why it cannot.
    static func mount(megabytes: Int) -> Result<SmallFileSystem, FaultInjectionError> {
        guard geteuid() == 0 else { return .failure(FaultInjectionError("mounting a tmpfs needs root; this run is uid \(geteuid())")) }
        let path = NSTemporaryDirectory() + "vouch-full-disk-" + UUID().uuidString
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            return .failure(FaultInjectionError("cannot create \(path): \(error)"))
        }
        let (status, output) = run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m,mode=0700", "tmpfs", path])
        guard status == 0 else {
            try? FileManager.default.removeItem(atPath: path)
            return .failure(FaultInjectionError("mount -t tmpfs failed (\(status)): \(output)"))
        }
        return .success(SmallFileSystem(path: path))
    }

    /// Unmounts (lazily if something still holds a file open) and removes the mount point.
    func unmount() {
        if SmallFileSystem.run("/bin/umount", [path]).status != 0 {
            _ = SmallFileSystem.run("/bin/umount", ["-l", path])
        }
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes a file of zeros until the file system answers ENOSPC; returns how many bytes it took.
    @discardableResult
    func fill(with name: String = "filler") -> Int {
        let descriptor = open(path + "/" + name, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { return 0 }
        defer { close(descriptor) }
        var total = 0
        for blockSize in [1 << 20, 4_096, 512, 1] {
            let block = [UInt8](repeating: 0, count: blockSize)
            while true {
                let written = block.withUnsafeBytes { write(descriptor, $0.baseAddress, blockSize) }
                if written <= 0 { break }
                total += written
            }
        }
        fsync(descriptor)
        return total
    }

    func removeFiller(_ name: String = "filler") {
        unlink(path + "/" + name)
    }

    static func run(_ executable: String, _ arguments: [String]) -> (status: Int32, output: String) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return (-1, "\(error)") }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

struct FaultInjectionError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
