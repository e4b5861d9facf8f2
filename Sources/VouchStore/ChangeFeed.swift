import Synchronization

/// Tells the parts of the process that keep copies of stored state what each committed write changed: the
/// evaluation snapshot, the token directory, the delivery worker, promotion, the OFREP event streams
/// (docs/architecture.md, "The change feed").
///
/// A write publishes after its COMMIT and before the store call returns, on the writing thread, so whoever answers
/// a client after a write answers with every subscriber already up to date. A rolled-back write publishes nothing.
/// Two writes committed one after the other on different threads may publish in either order: a subscriber for
/// which order matters keeps the newest by revision.
public final class ChangeFeed: Sendable {
    private struct Subscribers {
        var observers: [@Sendable (CommittedChanges) -> Void] = []
        var reactions: [@Sendable (CommittedChanges) -> Void] = []
    }

    private let subscribers = Mutex(Subscribers())

    public init() {}

    /// Calls `handler` with every publication from now on, on the publishing thread. It must not block for long,
    /// since the writer's client waits for it, and must not write through the store (see `subscribeReaction`).
    public func subscribe(_ handler: @escaping @Sendable (CommittedChanges) -> Void) {
        subscribers.withLock { $0.observers.append(handler) }
    }

    /// Like `subscribe`, for a handler that may write through the store in turn (promotion): it runs after every
    /// plain subscriber, so they all hear of this commit before they hear of the writes it causes.
    public func subscribeReaction(_ handler: @escaping @Sendable (CommittedChanges) -> Void) {
        subscribers.withLock { $0.reactions.append(handler) }
    }

    /// Hands `committed` to every subscriber, plain ones first, each group in the order they subscribed.
    /// Only a store calls this, after COMMIT.
    public func publish(_ committed: CommittedChanges) {
        let current = subscribers.withLock { $0 }
        for handler in current.observers { handler(committed) }
        for handler in current.reactions { handler(committed) }
    }
}
