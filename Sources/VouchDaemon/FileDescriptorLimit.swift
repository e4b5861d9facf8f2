import Foundation

/// The process's limit on open files, which caps how many connections vouchd can hold: each is a descriptor.
enum FileDescriptorLimit {
    /// Descriptors kept for everything but connections: the database and its journal per SQLite connection, the
    /// listening socket, libmicrohttpd's epoll and wake-up descriptors per thread, webhook sockets, logs.
    static let reserved = 128

    /// Raises the soft limit to the hard one, which a process may do without privilege (systemd's default soft
    /// limit is 1024 for compatibility with `select`, which vouchd does not use); returns the soft limit in force.
    static func raiseToHardLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return Int.max }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        // RLIM_INFINITY is all ones, which clamps to Int.max.
        return Int(clamping: limit.rlim_cur)
    }

    /// The connection limit that fits under `descriptors`, keeping `reserved` for the rest.
    static func connectionLimit(configured: Int, descriptors: Int) -> Int {
        min(configured, max(1, descriptors - reserved))
    }
}
