import Synchronization

/// The answer to a `.later` request, kept from the moment a completion delivers it (on any thread) until
/// libmicrohttpd, with the connection resumed, calls the access handler again to have it queued.
final class DeferredAnswer: Sendable {
    private let response = Mutex<HTTPResponse?>(nil)

    func store(_ answer: HTTPResponse) {
        response.withLock { $0 = answer }
    }

    func take() -> HTTPResponse? {
        response.withLock { answer in
            defer { answer = nil }
            return answer
        }
    }
}
