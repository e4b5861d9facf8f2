import CMicroHTTPD
import Synchronization

/// The running `MHD_Daemon`, guarded so `stop()` from a signal handler and `deinit` cannot both free it.
///
/// `@unchecked Sendable`: the pointer is only read or cleared while holding `lock`.
final class DaemonHandle: @unchecked Sendable {
    private let lock = Mutex<Void>(())
    private var daemon: OpaquePointer?

    func set(_ daemon: OpaquePointer) {
        lock.withLock { _ in self.daemon = daemon }
    }

    func withDaemon(_ body: (OpaquePointer) -> Void) {
        lock.withLock { _ in if let daemon { body(daemon) } }
    }

    func take() -> OpaquePointer? {
        lock.withLock { _ in
            let taken = daemon
            daemon = nil
            return taken
        }
    }
}
