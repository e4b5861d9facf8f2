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

    var send: (Request) throws(Failure) -> Response

    /// libcurl, through one client whose connection is kept alive between requests.
    static func curl() -> HTTPTransport {
        let client = HTTPClient()
        return HTTPTransport { request throws(Failure) in
            do throws(HTTPClient.TransportError) {
                let response = try client.send(method: request.method, url: request.url, headers: request.headers, body: request.body)
                return Response(status: response.status, headers: response.headers, body: response.body)
            } catch {
                throw Failure(message: error.message, isConnectionFailure: error.isConnectionFailure)
            }
        }
    }
}
