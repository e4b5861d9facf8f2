import CMicroHTTPD

/// Per-request state, allocated on libmicrohttpd's first callback and released in its completion callback.
final class RequestState {
    var body: [UInt8] = []
    var bodyTooLarge = false
}

extension HTTPServer {
    /// libmicrohttpd's access handler, called several times per request (see docs/architecture.md, "libmicrohttpd"):
    /// first with no state, then once per body chunk, then with no data when the request is complete.
    func handle(connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>, uploadData: UnsafePointer<CChar>?,
                uploadDataSize: UnsafeMutablePointer<Int>, requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        guard let rawState = requestState.pointee else {
            let state = RequestState()
            requestState.pointee = Unmanaged.passRetained(state).toOpaque()
            requestsInFlight.add(1, ordering: .relaxed)
            // Answering on the first call would make libmicrohttpd close the connection, so only a body that
            // announces itself as too large is refused here, before any of it is read.
            if let length = header(connection, "Content-Length").flatMap(Int.init), length > configuration.maxBodyBytes {
                return queue(tooLarge(), on: connection)
            }
            return .YES
        }
        let state = Unmanaged<RequestState>.fromOpaque(rawState).takeUnretainedValue()
        let chunkSize = uploadDataSize.pointee
        if chunkSize > 0 {
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
        if state.bodyTooLarge { return queue(tooLarge(), on: connection) }
        var headers: [String: String] = [:]
        for name in configuration.collectedHeaders {
            if let value = header(connection, name) { headers[name] = value }
        }
        let request = HTTPRequest(method: String(cString: method), path: String(cString: url), query: queryArguments(connection),
                                  headers: headers, body: state.body, clientAddress: ClientAddress(vouch_mhd_client_address(connection)))
        return queue(handler(request), on: connection)
    }

    private func tooLarge() -> HTTPResponse {
        Problem(status: 413, detail: "the request body is larger than \(configuration.maxBodyBytes) bytes, the limit (http.max_body_bytes)").response
    }

    private func header(_ connection: OpaquePointer, _ name: String) -> String? {
        MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, name).map { String(cString: $0) }
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

    private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let mhdResponse = response.body.withUnsafeBytes { bytes in
            // RESPMEM_MUST_COPY: libmicrohttpd copies the bytes, so the Swift array may go away.
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
        }
        guard let mhdResponse else { return .NO }
        defer { MHD_destroy_response(mhdResponse) }
        for (name, value) in response.headers {
            _ = MHD_add_response_header(mhdResponse, name, value)
        }
        return MHD_queue_response(connection, UInt32(response.status), mhdResponse)
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
