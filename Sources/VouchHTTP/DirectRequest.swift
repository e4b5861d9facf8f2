import CMicroHTTPD

/// A request as the server holds it before it makes an `HTTPRequest` of it, lent to the server's direct handler
/// (`HTTPServer.init(configuration:handler:direct:)`) for the length of one call: the one kind of request most
/// traffic consists of (an OFREP evaluation) is answered from these bytes, without the Strings, dictionary and moves
/// of a request made and released again for every answer (docs/architecture.md, "The OFREP hot path").
///
/// Its bytes are libmicrohttpd's memory and the request state's, valid only during the call, so nothing of them can
/// be kept: the request is noncopyable and only ever lent (`borrowing`), so a handler can neither store nor return
/// it; its method, path and body are reached through closures given a `RawSpan`, which the compiler does not let
/// out of the closure; its headers are read through `HeaderReading`, whose values are lent to a closure only.
public struct DirectRequest: ~Copyable, HeaderReading {
    @usableFromInline let method: UnsafeRawBufferPointer
    /// The path without the query, percent-decoded by libmicrohttpd (as `HTTPRequest.path`).
    @usableFromInline let path: UnsafeRawBufferPointer
    /// The id the answer carries, as `HTTPRequest.requestID`.
    public let requestID: String
    /// The collected headers, read where libmicrohttpd keeps them. A strong reference: its retain and release, once
    /// per request, are well under 1 % of the request's work (BENCHMARKS.md, "Unsafe code in one place").
    @usableFromInline let headers: ReceivedHeaders
    /// The whole body, within the size limit, where the request's state keeps it.
    @usableFromInline let body: UnsafeRawBufferPointer
    /// libmicrohttpd's connection, for the client's address; nil for a request made in a test.
    let connection: OpaquePointer?

    /// - Parameters:
    ///   - headers: the request state's, kept alive by the caller for the call.
    ///   - body: valid for the call.
    init(method: UnsafeRawBufferPointer, path: UnsafeRawBufferPointer, requestID: String, headers: ReceivedHeaders, body: UnsafeRawBufferPointer,
         connection: OpaquePointer?) {
        self.method = method
        self.path = path
        self.requestID = requestID
        self.headers = headers
        self.body = body
        self.connection = connection
    }

    /// Calls `read` with the method's bytes, such as `POST`.
    @inlinable
    public func withMethod<Result>(_ read: (RawSpan) -> Result) -> Result {
        read(method.bytes)
    }

    /// Calls `read` with the path's bytes: without the query, percent-decoded by libmicrohttpd (as `HTTPRequest.path`).
    @inlinable
    public func withPath<Result>(_ read: (RawSpan) -> Result) -> Result {
        read(path.bytes)
    }

    /// Calls `read` with the whole body, within the size limit.
    @inlinable
    public func withBody<Result>(_ read: (RawSpan) -> Result) -> Result {
        read(body.bytes)
    }

    // The collected headers, as `HTTPRequest.headers` would have them; inlinable, as `ReceivedHeaders`' own reads
    // are, so that a read from another module is specialized rather than a generic call.
    @inlinable
    public func contains(_ name: String) -> Bool {
        headers.contains(name)
    }

    @inlinable
    public func withValueBytes<Result>(_ name: String, _ body: (UnsafeRawBufferPointer?) -> Result) -> Result {
        headers.withValueBytes(name, body)
    }

    /// Where the request came from, as `HTTPRequest.clientAddress`; read from the socket only when asked.
    public var clientAddress: ClientAddress {
        connection.map { ClientAddress(vouch_mhd_client_address($0)) } ?? .unknown
    }
}
