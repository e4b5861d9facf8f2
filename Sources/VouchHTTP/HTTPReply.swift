/// What a handler gives back: an answer now, an answer later, or an event stream.
///
/// `.later` and `.stream` never hold one of libmicrohttpd's threads while they wait: the server suspends the
/// connection and resumes it when there is something to write (docs/architecture.md, "Answers that wait").
public enum HTTPReply: Sendable {
    case now(HTTPResponse)
    /// The server suspends the connection, then calls the closure (on the server thread) with a one-shot completion.
    /// The closure must hand its work to another thread and return at once; whoever completes (any thread, any time,
    /// possibly synchronously inside the closure) resumes the connection with the answer.
    case later(@Sendable (HTTPCompletion) -> Void)
    /// The response's status and headers, then a body of unknown length (chunked) made of the bytes the stream is given.
    case stream(HTTPResponse, HTTPStream)
}
