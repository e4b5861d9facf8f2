/// The database as the store uses it: every call reports its dialect's "cannot now" failures as `StoreUnavailable`.
///
/// `RelationalStore` reaches its database only through this, so the mapping happens once, where the dialect's
/// errors leave a transaction, a read or a wait, and each method of the store gets it without thinking of it.
/// Inside a body, statements still throw the dialect's own errors, which the store's code may match (a constraint).
final class StoreDatabase: SQLDatabase {
    let base: any SQLDatabase

    init(_ base: any SQLDatabase) {
        self.base = base
    }

    var dialect: SQLDialect { base.dialect }
    var location: String { base.location }
    var isShared: Bool { base.isShared }

    func write<T: Sendable>(_ body: (any SQLConnection) throws -> T, committed: (T) -> T) throws -> T {
        try StoreUnavailable.reporting { try base.write(body, committed: committed) }
    }

    func groupWrite<T: Sendable>(_ body: @escaping (any SQLConnection) throws -> T, committed: @escaping (T) -> T) throws -> T {
        try StoreUnavailable.reporting { try base.groupWrite(body, committed: committed) }
    }

    func groupWrite<T: Sendable>(_ body: @escaping (any SQLConnection) throws -> T, committed: @escaping (T) -> T,
                                 completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        base.groupWrite(body, committed: committed) { outcome in
            completion(outcome.mapError { StoreUnavailable(reporting: $0) ?? $0 })
        }
    }

    func read<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try StoreUnavailable.reporting { try base.read(body) }
    }

    func withWriter<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try StoreUnavailable.reporting { try base.withWriter(body) }
    }

    func purgeDeletedRows() throws {
        try StoreUnavailable.reporting { try base.purgeDeletedRows() }
    }

    func writeLockingRows<T: Sendable>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try StoreUnavailable.reporting { try base.writeLockingRows(body) }
    }

    func whileHolding<T: Sendable>(_ lock: SharedLock, lease: Duration, _ body: (_ stillHeld: () -> Bool) throws -> T) throws -> T? {
        try StoreUnavailable.reporting { try base.whileHolding(lock, lease: lease, body) }
    }

    func waitForAnnouncement(timeout: Duration) throws {
        try StoreUnavailable.reporting { try base.waitForAnnouncement(timeout: timeout) }
    }
}
