import CMicroHTTPD

/// A request as the server holds it before it makes an `HTTPRequest` of it, for the server's direct handler
/// (`HTTPServer.init(configuration:handler:direct:)`): the one kind of request most traffic consists of (an OFREP
/// evaluation) is answered from these bytes, without the Strings, dictionary and moves of a request made and
/// released again for every answer (docs/architecture.md, "The OFREP hot path").
///
/// Its bytes point into libmicrohttpd's memory and the request's state: valid only during the call.
public struct DirectRequest {
    /// The method, such as `POST`.
    public let method: UnsafeRawBufferPointer
    /// The path without the query, percent-decoded by libmicrohttpd (as `HTTPRequest.path`).
    public let path: UnsafeRawBufferPointer
    /// The id the answer carries, as `HTTPRequest.requestID`.
    public let requestID: String
    /// The collected headers (see `withHeaders`). Unretained: the request's state holds them, and the caller holds
    /// the state for the call; a strong reference, or a read accessor, retained and released them on every read.
    private let headers: Unmanaged<ReceivedHeaders>
    /// The whole body, within the size limit, where the request's state keeps it.
    public let body: UnsafeBufferPointer<UInt8>
    /// libmicrohttpd's connection, for the client's address; nil for a request made in a test.
    let connection: OpaquePointer?

    /// - Parameters:
    ///   - headers: the request state's, kept alive by the caller for the call.
    ///   - body: valid for the call.
    init(method: UnsafeRawBufferPointer, path: UnsafeRawBufferPointer, requestID: String, headers: ReceivedHeaders, body: UnsafeBufferPointer<UInt8>,
         connection: OpaquePointer?) {
        self.method = method
        self.path = path
        self.requestID = requestID
        self.headers = Unmanaged.passUnretained(headers)
        self.body = body
        self.connection = connection
    }

    /// Calls `body` with the collected headers, as `HTTPRequest.headers` would have them, read where libmicrohttpd
    /// keeps them.
    public func withHeaders<Result>(_ body: (ReceivedHeaders) -> Result) -> Result {
        headers._withUnsafeGuaranteedRef(body)
    }

    /// Where the request came from, as `HTTPRequest.clientAddress`; read from the socket only when asked.
    public var clientAddress: ClientAddress {
        connection.map { ClientAddress(vouch_mhd_client_address($0)) } ?? .unknown
    }
}
