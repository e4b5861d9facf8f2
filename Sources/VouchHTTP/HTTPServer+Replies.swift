import CMicroHTTPD

/// `.later` and `.stream` replies: the connection is suspended while there is nothing to write, so waiting never holds
/// one of libmicrohttpd's threads (docs/architecture.md, "Answers that wait").
extension HTTPServer {
    /// A stream's send buffer in the kernel (which doubles it): room for hundreds of events, not megabytes.
    static let streamSendBufferBytes: Int32 = 32 * 1024

    static let stoppingProblem = Problem(status: 503, detail: "the server is stopping")

    /// The buffer libmicrohttpd allocates (and clears) with a stream's response, which every open stream holds. Only
    /// HTTP/1.0 clients are written from it (chunks for HTTP/1.1 go through the connection's own memory), in pieces
    /// of at most this size: an event is about 150 bytes.
    static let streamBlockBytes = 256

    /// Suspends the connection, then hands `start` its completion. Suspended first, so that whoever completes, even
    /// `start` itself before it returns, finds the connection suspended, the one state libmicrohttpd lets any thread
    /// resume. Its answer is queued when libmicrohttpd calls the access handler again.
    func answerLater(_ start: @Sendable (HTTPCompletion) -> Void, state: RequestState, connection: OpaquePointer) -> MHD_Result {
        let answer = DeferredAnswer()
        state.deferredAnswer = answer
        state.answersAfterHandler = true
        replies.requestsInFlight.add(1, ordering: .relaxed)
        let suspended = SuspendableConnection(connection)
        suspended.suspend()
        let key = ObjectIdentifier(answer)
        let completion = HTTPCompletion { [replies] response in
            answer.store(response)
            replies.completionDelivered(key: key)
            suspended.resume()
        }
        if replies.add(completion, key: key) {
            start(completion)
        } else {
            completion.complete(HTTPServer.stoppingProblem.response)
        }
        return .YES
    }

    /// Sends the response's head, then the stream's bytes as chunks until it ends (`read`, `detach` on `HTTPStream`).
    func answerStreaming(_ response: HTTPResponse, body stream: HTTPStream, state: RequestState, requestID: String, isHead: Bool,
                         connection: OpaquePointer) -> MHD_Result {
        guard !isHead else {
            // libmicrohttpd 0.9.75 writes the last chunk ("0\r\n\r\n") after the head of a chunked answer to HEAD,
            // which the client then reads as the start of the next answer: the head alone, and the stream ends.
            stream.finish()
            return queue(HTTPResponse(status: response.status, headers: response.headers), requestID: requestID, on: connection)
        }
        let handle = SuspendableConnection(connection)
        guard stream.attach(to: handle) else {
            let misuse = Problem(status: 500, detail: "the handler answered with a stream that already answers another request")
            return queue(misuse.response, requestID: requestID, on: connection)
        }
        state.answersAfterHandler = true
        replies.requestsInFlight.add(1, ordering: .relaxed)
        if !replies.add(stream) { stream.finish() }
        handle.limitSendBuffer(to: HTTPServer.streamSendBufferBytes)
        if state.slot >= 0 { tracker.enter(.streaming, slot: state.slot) }
        // Retained until libmicrohttpd lets go of the response, which calls `streamReleased`; that happens even
        // when queueing fails, as the response is destroyed then.
        let context = Unmanaged.passRetained(stream).toOpaque()
        // MHD_SIZE_UNKNOWN: chunked for HTTP/1.1 clients, until the connection closes for HTTP/1.0 ones.
        let mhdResponse = MHD_create_response_from_callback(UInt64.max, HTTPServer.streamBlockBytes, HTTPServer.streamReader, context,
                                                            HTTPServer.streamReleased)
        if mhdResponse == nil { HTTPServer.streamReleased(context) }
        return queue(mhdResponse, status: response.status, headers: response.headers, requestID: requestID, on: connection)
    }

    /// The content reader: on the connection's thread, with libmicrohttpd's lock on the response held.
    private static let streamReader: MHD_ContentReaderCallback = { context, _, buffer, maximum in
        guard let context, let buffer else { return vouch_mhd_end_with_error() }
        return Unmanaged<HTTPStream>.fromOpaque(context).takeUnretainedValue().read(into: buffer, maximum: maximum)
    }

    /// libmicrohttpd destroyed the response: the body ended, the client left, or the server stopped.
    private static let streamReleased: MHD_ContentReaderFreeCallback = { context in
        guard let context else { return }
        Unmanaged<HTTPStream>.fromOpaque(context).takeRetainedValue().detach()
    }
}
