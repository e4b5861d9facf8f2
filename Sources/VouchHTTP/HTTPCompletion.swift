import Synchronization

/// The one answer a `.later` reply still owes: the first `complete` delivers it, later calls are ignored.
///
/// Delivery runs under the completion's lock, so once any `complete` has returned the answer is delivered, whichever
/// thread won; the server relies on that when it stops (every suspended connection must be resumed before
/// libmicrohttpd is stopped).
public final class HTTPCompletion: Sendable {
    /// Emptied by the first delivery, which also lets go of whatever the delivery held.
    private let delivery: Mutex<(@Sendable (HTTPResponse) -> Void)?>

    /// A completion that hands its first response to `deliver`. The server makes its own; this is for code that runs
    /// a `.later` closure without a server, such as a test. `deliver` runs under the completion's lock: it must not
    /// call `complete` on the same completion.
    public init(_ deliver: @escaping @Sendable (HTTPResponse) -> Void) {
        delivery = Mutex(deliver)
    }

    /// Whether an answer was given already (by the work itself, or by the server stopping): work not yet begun
    /// should then not be done at all, since the client was told it was not.
    public var isAnswered: Bool { delivery.withLock { $0 == nil } }

    /// The first call wins; later calls are ignored. Safe from any thread.
    public func complete(_ response: HTTPResponse) {
        delivery.withLock { delivery in
            guard let deliver = delivery else { return }
            delivery = nil
            deliver(response)
        }
    }
}
