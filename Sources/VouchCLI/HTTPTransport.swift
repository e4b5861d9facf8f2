import VouchClient

/// One HTTP exchange, as `APIClient` needs it. The real one is libcurl; tests put in their own to watch the
/// requests and to make the network fail on purpose.
struct HTTPTransport {
    struct Request {
        var method: String
        var url: String
        var headers: [(String, String)]
        var body: [UInt8]?

        /// A header's value by case-insensitive name.
        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
    }

    struct Response {
        var status: Int
        /// Header names in lowercase.
        var headers: [String: String]
        var body: [UInt8]
    }

    /// No answer came back: the connection failed or broke.
    struct Failure: Error {
        var message: String
        /// Nothing reached the server (refused, unresolved, timed out), as opposed to a failure curl reports otherwise.
        var isConnectionFailure: Bool
    }

    /// A GET whose body may never end: each chunk of a 2xx body goes to `receive` (false stops it), and `shouldStop`
    /// is asked about once a second.
    typealias Stream = (_ request: Request, _ shouldStop: @escaping () -> Bool, _ receive: @escaping ([UInt8]) -> Bool) throws(Failure) -> HTTPClient.StreamEnd

    var send: (Request) throws(Failure) -> Response
    var stream: Stream = { _, _, _ throws(Failure) in
        throw Failure(message: "this transport opens no event streams", isConnectionFailure: false)
    }

    init(send: @escaping (Request) throws(Failure) -> Response) {
        self.send = send
    }

    /// libcurl, through one client whose connection is kept alive between requests; each stream has a client of
    /// its own, as requests go out while it is open.
    static func curl() -> HTTPTransport {
        let client = HTTPClient()
        var transport = HTTPTransport { request throws(Failure) in
            do throws(HTTPClient.TransportError) {
                let response = try client.send(method: request.method, url: request.url, headers: request.headers, body: request.body)
                return Response(status: response.status, headers: response.headers, body: response.body)
            } catch {
                throw Failure(error)
            }
        }
        transport.stream = { request, shouldStop, receive throws(Failure) in
            do throws(HTTPClient.TransportError) {
                // Keep-alive comments come every 15 s by default (docs/contracts.md, "Event streams"): a minute of silence is a broken connection.
                return try HTTPClient().stream(url: request.url, headers: request.headers, idleSeconds: 60, shouldStop: shouldStop, receive: receive)
            } catch {
                throw Failure(error)
            }
        }
        return transport
    }
}

extension HTTPTransport.Failure {
    init(_ error: HTTPClient.TransportError) {
        self.init(message: error.message, isConnectionFailure: error.isConnectionFailure)
    }
}
