import Foundation
import Synchronization

/// A child process for the tests, started with `posix_spawn` itself: the part of Foundation's `Process` the tests
/// use, with the same names, so a test swaps one for the other.
///
/// Why not `Process`: on Linux, swift-corelibs-foundation 6.3.1's `Process.run()` lists /proc/self/fd to close the
/// inherited descriptors and copies all 256 bytes of each entry's name, reading past glibc's buffer when an entry
/// sits at its end; the test process crashes when the next page is unmapped (swiftlang/swift-corelibs-foundation
/// PR #5472, merged after 6.3.1). A test process holding many descriptors met it. Here the child closes every
/// descriptor from 3 up with `posix_spawn_file_actions_addclosefrom_np`, and nothing reads the directory.
///
/// Like `Process`: the child gets a process group of its own; a `Pipe` given as a standard stream has the child's
/// end closed in this process once the child started, so reading the other end ends when the child's does; a
/// `FileHandle` is lent as it is.
public final class ChildProcess: @unchecked Sendable {
    public enum TerminationReason: Sendable { case exit, uncaughtSignal }

    public var executableURL: URL?
    public var arguments: [String]?
    /// nil: this process's environment.
    public var environment: [String: String]?
    public var currentDirectoryURL: URL?
    public var standardInput: Any?
    public var standardOutput: Any?
    public var standardError: Any?

    private struct State {
        var pid: pid_t = 0
        /// The raw `waitpid` status, once reaped.
        var status: Int32?
    }
    private let state = Mutex(State())

    public init() {}

    public var processIdentifier: Int32 { state.withLock { $0.pid } }

    public func run() throws {
        guard let executable = executableURL?.path else { throw SpawnError(function: "run", code: EINVAL) }
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        try check("posix_spawn_file_actions_init", posix_spawn_file_actions_init(&actions))
        defer { posix_spawn_file_actions_destroy(&actions) }
        try check("posix_spawnattr_init", posix_spawnattr_init(&attributes))
        defer { posix_spawnattr_destroy(&attributes) }
        try check("posix_spawnattr_setflags", posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP)))
        try check("posix_spawnattr_setpgroup", posix_spawnattr_setpgroup(&attributes, 0))

        var childEnds: [FileHandle] = []
        for (stream, target) in [(standardInput, STDIN_FILENO), (standardOutput, STDOUT_FILENO), (standardError, STDERR_FILENO)] {
            let handle: FileHandle
            switch stream {
            case let pipe as Pipe:
                handle = target == STDIN_FILENO ? pipe.fileHandleForReading : pipe.fileHandleForWriting
                childEnds.append(handle)
            case let file as FileHandle:
                handle = file
            default:
                continue
            }
            if handle.fileDescriptor < 0 {
                // `FileHandle.nullDevice` has no descriptor of its own; `Process` opens /dev/null for it too.
                try check("posix_spawn_file_actions_addopen", posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0))
            } else {
                try check("posix_spawn_file_actions_adddup2", posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, target))
            }
        }
        try check("posix_spawn_file_actions_addclosefrom_np", GlibcSpawnExtensions.addCloseFrom(&actions, 3))
        if let directory = currentDirectoryURL?.path {
            try check("posix_spawn_file_actions_addchdir_np", GlibcSpawnExtensions.addChangeDirectory(&actions, directory))
        }

        let argv = [executable] + (arguments ?? [])
        let environment = self.environment ?? ProcessInfo.processInfo.environment
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        let result = withCStrings(argv) { argvPointers in
            withCStrings(envp) { envPointers in
                posix_spawn(&pid, executable, &actions, &attributes, argvPointers, envPointers)
            }
        }
        try check("posix_spawn", result)
        state.withLock { $0.pid = pid }
        for end in childEnds { try? end.close() }
    }

    /// Whether the child was started and has not exited yet; reaps it when it has. False before `run()`, as for
    /// `Process`: a caller that signals a running child must never signal pid 0, its own process group.
    public var isRunning: Bool { processIdentifier > 0 && reap(blocking: false) == nil }

    public func waitUntilExit() { _ = reap(blocking: true) }

    /// The exit code, or the signal that ended the child.
    public var terminationStatus: Int32 {
        guard let status = reap(blocking: false) else { return 0 }
        return ChildProcess.exited(status) ? (status >> 8) & 0xff : status & 0x7f
    }

    public var terminationReason: TerminationReason {
        guard let status = reap(blocking: false) else { return .exit }
        return ChildProcess.exited(status) ? .exit : .uncaughtSignal
    }

    /// SIGTERM, as `Process.terminate()`.
    public func terminate() {
        let pid = processIdentifier
        if pid > 0, isRunning { kill(pid, SIGTERM) }
    }

    private static func exited(_ status: Int32) -> Bool { status & 0x7f == 0 }

    /// The raw status once the child was reaped; waits for it when `blocking`. One thread reaps at a time, and a
    /// status reaped once is kept.
    private func reap(blocking: Bool) -> Int32? {
        while true {
            let (pid, known) = state.withLock { ($0.pid, $0.status) }
            if let known { return known }
            guard pid > 0 else { return nil }
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            if reaped == pid {
                state.withLock { $0.status = status }
                return status
            }
            if reaped == 0 { return nil }
            if errno == EINTR { continue }
            // ECHILD: another thread reaped it meanwhile and is storing the status.
            if blocking { usleep(1_000); continue }
            return state.withLock { $0.status }
        }
    }

    private func check(_ function: String, _ result: Int32) throws {
        if result != 0 { throw SpawnError(function: function, code: result) }
    }

    public struct SpawnError: Error, CustomStringConvertible {
        public var function: String
        public var code: Int32
        public var description: String { "\(function) failed: \(String(cString: strerror(code)))" }
    }
}

/// glibc's spawn actions that Swift's Glibc module does not declare (spawn.h hides them behind `__USE_MISC`), found
/// by name; glibc has had both since 2.34 (Debian 12: 2.36).
private enum GlibcSpawnExtensions {
    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias AddChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    static let addCloseFrom: AddCloseFrom = unsafeBitCast(symbol("posix_spawn_file_actions_addclosefrom_np"), to: AddCloseFrom.self)
    static let addChangeDirectory: AddChangeDirectory = unsafeBitCast(symbol("posix_spawn_file_actions_addchdir_np"), to: AddChangeDirectory.self)

    private static func symbol(_ name: String) -> UnsafeMutableRawPointer {
        guard let found = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { fatalError("glibc has no \(name)") }
        return found
    }
}

/// Calls `body` with a NULL-terminated array of C strings copied from `strings`, valid for the call.
private func withCStrings<Result>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result) -> Result {
    let pointers = strings.map { strdup($0) }
    defer { pointers.forEach { free($0) } }
    return body(pointers + [nil])
}
