import CMicroHTTPD

/// Making libmicrohttpd responses, for answers queued once (`HTTPServer.queue`) and for those made once and lent
/// again and again (`ReusableResponse`).
enum MHDResponse {
    /// A response holding its own copy of `body` (RESPMEM_MUST_COPY), so the Swift array may go away.
    static func copying(_ body: [UInt8]) -> OpaquePointer? {
        body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
        }
    }

    /// Adds `headers`, then the `X-Request-Id` every answer carries; the result of adding the latter.
    @discardableResult
    static func add<Headers: Sequence<(name: String, value: String)>>(_ headers: Headers, requestID: String,
                                                                      to response: OpaquePointer) -> MHD_Result {
        // `withCString`, not a String passed as `const char *`: Swift copies a small String (most names and
        // values here) to the heap for that, an allocation per header; `withCString` copies it to the stack.
        for (name, value) in headers {
            _ = name.withCString { name in value.withCString { MHD_add_response_header(response, name, $0) } }
        }
        return requestID.withCString { MHD_add_response_header(response, "X-Request-Id", $0) }
    }
}
