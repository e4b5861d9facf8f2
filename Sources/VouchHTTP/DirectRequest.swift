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
    let state: RequestState
    /// libmicrohttpd's connection, for the client's address; nil for a request made in a test.
    let connection: OpaquePointer?

    init(method: UnsafeRawBufferPointer, path: UnsafeRawBufferPointer, requestID: String, state: RequestState, connection: OpaquePointer?) {
        self.method = method
        self.path = path
        self.requestID = requestID
        self.state = state
        self.connection = connection
    }

    /// Where the request came from, as `HTTPRequest.clientAddress`; read from the socket only when asked.
    public var clientAddress: ClientAddress {
        connection.map { ClientAddress(vouch_mhd_client_address($0)) } ?? .unknown
    }

    /// The collected headers, as `HTTPRequest.headers` would have them, read where libmicrohttpd keeps them.
    public var headers: ReceivedHeaders {
        // Yielded, not returned: a returned reference was retained and released again on every read.
        _read { yield state.received }
    }

    /// The whole body, within the size limit.
    public var body: [UInt8] {
        _read { yield state.body }
    }
}
