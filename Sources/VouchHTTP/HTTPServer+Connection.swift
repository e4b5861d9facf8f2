import CMicroHTTPD
import Foundation

extension HTTPServer {
    /// libmicrohttpd's access handler, called several times per request (see docs/architecture.md, "libmicrohttpd"):
    /// first once the headers are complete, then once per body chunk, then with no data when the request is complete.
    func handle(connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>, version: UnsafePointer<CChar>,
                uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>,
                requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        if requestState.pointee == nil {
            requestState.pointee = Unmanaged.passRetained(takeState(slot: slot(of: connection))).toOpaque()
        }
        // Borrowed, not retained: libmicrohttpd's pointer keeps the state alive until the completion callback, and a
        // retain and release on each of the request's three calls were atomic operations for nothing.
        return Unmanaged<RequestState>.fromOpaque(requestState.pointee!)._withUnsafeGuaranteedRef { state in
            handle(state, connection: connection, url: url, method: method, version: version, uploadData: uploadData, uploadDataSize: uploadDataSize)
        }
    }

    private func handle(_ state: RequestState, connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>,
                        version: UnsafePointer<CChar>, uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>) -> MHD_Result {
        state.assertOnOwnThread()
        guard state.headersComplete else {
            state.headersComplete = true
            requestTally.add(1, at: 0)
            return begin(state, connection: connection, url: url, version: version)
        }
        // Called again once a `.later` completion resumed the connection: its answer is waiting.
        if let deferred = state.deferredAnswer {
            guard let response = deferred.take() else { return .NO }
            return queue(response, requestID: state.requestID, on: connection)
        }
        let chunkSize = uploadDataSize.pointee
        if chunkSize > 0 {
            if state.slot >= 0 { tracker.received(bodyBytes: chunkSize, slot: state.slot) }
            if !state.bodyTooLarge, let uploadData {
                if state.body.count + chunkSize > configuration.maxBodyBytes {
                    state.bodyTooLarge = true
                    state.body = []
                } else {
                    uploadData.withMemoryRebound(to: UInt8.self, capacity: chunkSize) { bytes in
                        state.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: chunkSize))
                    }
                }
            }
            uploadDataSize.pointee = 0
            return .YES
        }
        if state.readingBody, state.slot >= 0 { tracker.enter(.handling, slot: state.slot) }
        let requestID = requestIDs.id(for: state.received.value(key: requestIDHeader))
        if state.bodyTooLarge { return queue(tooLargeProblem.response, requestID: requestID, on: connection) }
        // `self.direct?(…)` inside, not `if let direct`: the bound copy retained and released the handler's context (the
        // application, shared by every HTTP thread) on every request, two atomic operations on a cache line the
        // threads then passed between them.
        if direct != nil {
            let answer = state.body.withUnsafeBytes { body in
                self.direct?(DirectRequest(method: UnsafeRawBufferPointer(start: method, count: strlen(method)),
                                           path: UnsafeRawBufferPointer(start: url, count: strlen(url)), requestID: requestID,
                                           headers: state.received, body: body, connection: connection))
            }
            if let answer { return queue(answer, requestID: requestID, on: connection, lendingTo: state) }
        }
        // The headers are copied out of libmicrohttpd's memory into the state's storage, then they and the body move
        // into the request, which is their last reader: copies retained and released them.
        state.received.copy(into: &state.headers)
        var headers = HTTPHeaders()
        var body: [UInt8] = []
        swap(&headers, &state.headers)
        swap(&body, &state.body)
        var request = HTTPRequest(method: HTTPServer.text(method), path: state.path(url), query: queryArguments(connection),
                                  headers: headers, body: body, clientAddress: ClientAddress(vouch_mhd_client_address(connection)))
        request.requestID = requestID
        switch handler(request) {
        case .now(let response):
            // Back to the state, whose next request reuses their memory when nothing else kept them.
            swap(&state.headers, &request.headers)
            swap(&state.body, &request.body)
            return queue(response, requestID: requestID, on: connection, lendingTo: state)
        case .later(let start):
            state.requestID = requestID
            return answerLater(start, state: state, connection: connection)
        case .stream(let response, let stream):
            return answerStreaming(response, body: stream, state: state, requestID: requestID, isHead: request.method == "HEAD",
                                   connection: connection)
        }
    }

    /// The first access call: the head is complete and nothing of the body is read yet. A request whose target
    /// or framing the server refuses is answered here, and its connection closed: whatever follows it on the
    /// connection (a body of uncertain length, a request smuggled behind it) is never read.
    private func begin(_ state: RequestState, connection: OpaquePointer, url: UnsafePointer<CChar>, version: UnsafePointer<CChar>) -> MHD_Result {
        var scan = RequestHeaderScan()
        scan.read(connection, names: headerNames, into: state.received)
        var problem = state.targetProblem
        if problem == nil, state.targetLength >= 0, RequestTarget.heldRawNUL(url: url, version: version, targetLength: state.targetLength) {
            problem = RequestTarget.nulProblem
        }
        if problem == nil {
            problem = scan.problem(version: HTTPServer.text(version), headerBytes: vouch_mhd_request_header_size(connection), limits: configuration.limits)
        }
        // Only a body that announces itself as too large is refused before any of it is read.
        if problem == nil, let length = scan.contentLength, length > configuration.maxBodyBytes { problem = tooLargeProblem }
        state.readingBody = problem == nil && scan.expectsBody
        if state.slot >= 0 { tracker.enter(state.readingBody ? .readingBody : .handling, slot: state.slot) }
        guard let problem else { return .YES }
        var response = problem.response
        // libmicrohttpd 0.9.75 closes a connection whose answer was queued before the body was read; saying so
        // keeps that true whatever the version does by default.
        response.headers.append((name: "Connection", value: "close"))
        return queue(response, requestID: requestIDs.id(for: state.received.value(key: requestIDHeader)), on: connection)
    }

    /// A method or version as a String: the usual ones are literals, which need neither an allocation nor a check
    /// of their bytes; anything else is read from the C string.
    static func text(_ cString: UnsafePointer<CChar>) -> String {
        switch strlen(cString) {
        case 3 where memcmp(cString, "GET", 3) == 0: "GET"
        case 4 where memcmp(cString, "POST", 4) == 0: "POST"
        case 4 where memcmp(cString, "HEAD", 4) == 0: "HEAD"
        case 3 where memcmp(cString, "PUT", 3) == 0: "PUT"
        case 5 where memcmp(cString, "PATCH", 5) == 0: "PATCH"
        case 6 where memcmp(cString, "DELETE", 6) == 0: "DELETE"
        case 7 where memcmp(cString, "OPTIONS", 7) == 0: "OPTIONS"
        case 8 where memcmp(cString, "HTTP/1.1", 8) == 0: "HTTP/1.1"
        case 8 where memcmp(cString, "HTTP/1.0", 8) == 0: "HTTP/1.0"
        default: String(cString: cString)
        }
    }

    private var tooLargeProblem: Problem {
        Problem(status: 413, detail: "the request body is larger than \(configuration.maxBodyBytes) bytes, the limit (http.max_body_bytes)")
    }

    /// A spare state of the calling thread's stripe, or a new one.
    func takeState(slot: Int) -> RequestState {
        guard let spare = spareStates.withCurrent({ $0.popLast() }) else { return RequestState(slot: slot, names: headerNames) }
        spare.adopt()
        spare.slot = slot
        return spare
    }

    /// Keeps a state no one else holds for a later request, up to `sparesPerStripe` per stripe.
    func giveBack(_ state: inout RequestState) {
        guard isKnownUniquelyReferenced(&state) else { return }
        state.assertOnOwnThread()
        state.recycle()
        spareStates.withCurrent { spares in
            if spares.count < HTTPServer.sparesPerStripe { spares.append(state) }
        }
    }

    static let sparesPerStripe = 32

    /// The tracker slot the connection callback stored for this connection's socket; -1 for none.
    func slot(of connection: OpaquePointer) -> Int {
        Int(bitPattern: vouch_mhd_socket_context(connection)) - 1
    }

    private func queryArguments(_ connection: OpaquePointer) -> [String: String] {
        // "Returns the number of entries iterated over" — with no iterator, a cheap count; most requests have none.
        guard MHD_get_connection_values(connection, MHD_ValueKind.GET_ARGUMENT_KIND, nil, nil) > 0 else { return [:] }
        let collector = QueryCollector()
        withExtendedLifetime(collector) {
            _ = MHD_get_connection_values(connection, MHD_ValueKind.GET_ARGUMENT_KIND, QueryCollector.iterator,
                                          Unmanaged.passUnretained(collector).toOpaque())
        }
        return collector.values
    }

    /// Queues the answer with its `X-Request-Id`, the one header every answer carries. With `state`, a reusable
    /// response is answered with a libmicrohttpd response lent to the state until the request completes.
    func queue(_ response: HTTPResponse, requestID: String, on connection: OpaquePointer, lendingTo state: RequestState? = nil) -> MHD_Result {
        if let state, let reusable = response.reuse, let appended = reusable.appendedHeaders(of: response),
           let lent = reusable.lend(requestID: requestID, appended: appended) {
            let result = MHD_queue_response(connection, UInt32(response.status), lent.response)
            if result == .YES { state.lent = (reusable, lent) } else { reusable.giveBack(lent) }
            return result
        }
        return queue(MHDResponse.copying(response.body), status: response.status, headers: response.headers, requestID: requestID, on: connection)
    }

    /// Adds the headers and the `X-Request-Id` to a libmicrohttpd response, queues it and lets go of it.
    func queue(_ mhdResponse: OpaquePointer?, status: Int, headers: [(name: String, value: String)], requestID: String,
               on connection: OpaquePointer) -> MHD_Result {
        guard let mhdResponse else { return .NO }
        defer { MHD_destroy_response(mhdResponse) }
        MHDResponse.add(headers, requestID: requestID, to: mhdResponse)
        return MHD_queue_response(connection, UInt32(status), mhdResponse)
    }
}

/// Collects `?name=value` arguments through libmicrohttpd's iterator.
private final class QueryCollector {
    var values: [String: String] = [:]

    static let iterator: MHD_KeyValueIterator = { context, _, key, value in
        guard let context, let key else { return .YES }
        let collector = Unmanaged<QueryCollector>.fromOpaque(context).takeUnretainedValue()
        collector.values[String(cString: key)] = value.map { String(cString: $0) } ?? ""
        return .YES
    }
}
