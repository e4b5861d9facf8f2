import Foundation

/// One HTTP request as handlers see it: the body is complete and within the size limit.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path without the query string, percent-decoded by libmicrohttpd.
    public var path: String
    public var query: [String: String]
    /// Header values by lowercased name; only the headers Vouch reads are collected.
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// Where the request came from, for limits per address.
    public var clientAddress: ClientAddress
    /// The id logs and the `X-Request-Id` answer header carry; set by the HTTP server before the handler runs.
    public var requestID = ""

    public init(method: String, path: String, query: [String: String] = [:], headers: HTTPHeaders = [:], body: [UInt8] = [],
                clientAddress: ClientAddress = .unknown) {
        self.clientAddress = clientAddress
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? {
        // Callers nearly always pass the lowercased name: looked up as given first, and lowercased only when that
        // finds nothing and there is something to lowercase (lowercasing every time costs an allocation per call).
        if let value = headers[name] { return value }
        var name = name
        return name.withUTF8 { $0.contains { $0 >= 0x41 && $0 <= 0x5A } } ? headers[name.lowercased()] : nil
    }

    /// Whether the path starts with `prefix`, compared on bytes: `String.hasPrefix` compares by Unicode rules,
    /// which costs more on every request than the rest of the routing, and paths are compared byte for byte anyway.
    public func pathStarts(with prefix: StaticString) -> Bool {
        path.utf8.withContiguousStorageIfAvailable { HTTPRequest.bytes(UnsafeRawBufferPointer($0), startWith: prefix) }
            ?? path.hasPrefix(prefix.description)
    }

    /// `memcmp`, not a loop over the bytes: with its index checks the loop costs more than the rest of the routing
    /// (a request asks three or four times: which routes may wait, whether CORS applies, the router).
    private static func bytes(_ bytes: UnsafeRawBufferPointer, startWith literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        return count == 0 || memcmp(bytes.baseAddress!, literal.utf8Start, count) == 0
    }

    /// Whether `bytes` are exactly the literal's.
    public static func equal(_ bytes: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
        bytes.count == literal.utf8CodeUnitCount && HTTPRequest.bytes(bytes, startWith: literal)
    }

    /// Whether the body may be read as JSON: no `Content-Type`, or `application/json` or a `+json` type.
    public var hasJSONBody: Bool { headers.hasJSONBody }

    /// The media type of the body without parameters, lowercased (`application/json`).
    public var mediaType: String? { headers.mediaType }

    /// The value of one cookie from the `Cookie` header, or nil.
    public func cookie(_ name: String) -> String? {
        guard let header = headers["cookie"] else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.drop { $0 == " " || $0 == "\t" }
            guard let equals = pair.firstIndex(of: "="), pair[..<equals] == Substring(name) else { continue }
            return String(pair[pair.index(after: equals)...])
        }
        return nil
    }

    /// The request headers Vouch looks at; others are never copied out of libmicrohttpd.
    /// `origin` and `access-control-request-method` let a browser on another origin read OFREP (CORS); `host` and
    /// `last-event-id` serve its event streams (their address, and catching up after a reconnect). The console reads
    /// `cookie` (its session), `x-forwarded-proto` (whether a proxy in front serves it over TLS) and `accept-language`
    /// (the language of its pages).
    public static let collectedHeaders = ["authorization", "x-api-key", "content-type", "if-none-match", "idempotency-key", "x-request-id",
                                          "origin", "access-control-request-method", "host", "last-event-id", "cookie", "x-forwarded-proto",
                                          "accept-language"]
}
