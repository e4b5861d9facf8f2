import Foundation
import VouchStore

/// `vouchd restore`: puts a backup taken with `vouchd backup` in place of the state directory's database.
///
/// Nothing stored is lost on the way: the database it replaces is first copied aside (with what its WAL holds),
/// and the backup is checked before anything changes.
struct StateRestore {
    let stateDirectory: String
    let backupPath: String

    struct Result {
        var restoredPath: String
        var replacedCopy: String?
        var schemaVersion: Int
    }

    func run(now: Date = Date()) throws -> Result {
        guard FileManager.default.fileExists(atPath: backupPath) else { throw DaemonError("no backup file at \(backupPath)") }
        try VouchdCommand.prepareStateDirectory(stateDirectory)
        let lock = try StateDirectoryLock(stateDirectory: stateDirectory)
        let version = try BackupFile.verify(backupPath)
        let databasePath = VouchdCommand.databasePath(in: stateDirectory)
        var replacedCopy: String?
        if FileManager.default.fileExists(atPath: databasePath) {
            let stamp = ISO8601DateFormatter.string(from: now, timeZone: .gmt, formatOptions: [.withYear, .withMonth, .withDay, .withTime])
            let copy = "\(databasePath).replaced-\(stamp)"
            guard !FileManager.default.fileExists(atPath: copy) else { throw DaemonError("\(copy) already exists; try again in a second") }
            // Through SQLite, so the copy holds what is still only in the WAL file.
            let current = try SQLiteDatabase(path: databasePath)
            try current.backup(to: copy)
            replacedCopy = copy
        }
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: databasePath + suffix) {
            try FileManager.default.removeItem(atPath: databasePath + suffix)
        }
        let staging = databasePath + ".restoring"
        try? FileManager.default.removeItem(atPath: staging)
        try FileManager.default.copyItem(atPath: backupPath, toPath: staging)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: staging)
        try StateRestore.sync(path: staging)
        guard rename(staging, databasePath) == 0 else {
            throw DaemonError("cannot move the restored database into place: \(String(cString: strerror(errno)))")
        }
        try StateRestore.sync(path: stateDirectory)
        // Opening through the migrator brings a backup from an older vouchd up to this one's schema.
        let restored = try SQLiteDatabase(path: databasePath)
        try Migrator().migrate(restored)
        try restored.checkpointAndTruncate()
        try StateRestore.giveToDirectoryOwner([databasePath, databasePath + "-wal", databasePath + "-shm", replacedCopy,
                                               (stateDirectory as NSString).appendingPathComponent("vouchd.lock")].compactMap { $0 },
                                              directory: stateDirectory)
        withExtendedLifetime(lock) {}
        return Result(restoredPath: databasePath, replacedCopy: replacedCopy, schemaVersion: version)
    }

    /// Run as root (as an operator would, next to a service with its own user), the files restore writes would
    /// belong to root and the service could not open them: they go to whoever owns the state directory.
    private static func giveToDirectoryOwner(_ paths: [String], directory: String) throws {
        guard geteuid() == 0 else { return }
        var owner = stat()
        guard stat(directory, &owner) == 0 else { throw DaemonError("cannot read the owner of \(directory): \(String(cString: strerror(errno)))") }
        for path in paths where FileManager.default.fileExists(atPath: path) {
            guard chown(path, owner.st_uid, owner.st_gid) == 0 else {
                throw DaemonError("cannot give \(path) to the state directory's owner: \(String(cString: strerror(errno)))")
            }
        }
    }

    private static func sync(path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw DaemonError("cannot open \(path) to flush it: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw DaemonError("cannot flush \(path) to disk: \(String(cString: strerror(errno)))") }
    }
}
