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
        // finds nothing and there is something to lowercase (lowercasing every time cost an allocation per call).
        if let value = headers[name] { return value }
        var name = name
        return name.withUTF8 { $0.contains { $0 >= 0x41 && $0 <= 0x5A } } ? headers[name.lowercased()] : nil
    }

    /// Whether the path starts with `prefix`, compared on bytes: `String.hasPrefix` compares by Unicode rules,
    /// which cost more on every request than the rest of the routing, and paths are compared byte for byte anyway.
    public func pathStarts(with prefix: StaticString) -> Bool {
        path.utf8.withContiguousStorageIfAvailable { HTTPRequest.bytes(UnsafeRawBufferPointer($0), startWith: prefix) }
            ?? path.hasPrefix(prefix.description)
    }

    private static func bytes(_ bytes: UnsafeRawBufferPointer, startWith literal: StaticString) -> Bool {
        guard bytes.count >= literal.utf8CodeUnitCount else { return false }
        let start = literal.utf8Start
        for offset in 0..<literal.utf8CodeUnitCount where bytes[offset] != start[offset] { return false }
        return true
    }

    private static func equal(_ bytes: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
        bytes.count == literal.utf8CodeUnitCount && HTTPRequest.bytes(bytes, startWith: literal)
    }

    /// Whether the body may be read as JSON: no `Content-Type`, or `application/json` or a `+json` type.
    public var hasJSONBody: Bool {
        guard let mediaType else { return true }
        return mediaType == "application/json" || mediaType.hasSuffix("+json")
    }

    /// The media type of the body without parameters, lowercased (`application/json`).
    public var mediaType: String? {
        // The usual value, compared on its bytes, answered with a literal: no String made of it per request.
        let isPlainJSON = headers.withValueBytes("content-type") { bytes in bytes.map { HTTPRequest.equal($0, "application/json") } }
        guard let isPlainJSON else { return nil }
        if isPlainJSON { return "application/json" }
        guard let contentType = header("content-type") else { return nil }
        // Bytes, not Foundation (this runs on every OFREP request): up to ';', blanks trimmed, ASCII lowercased.
        var utf8 = Substring(contentType).utf8
        if let semicolon = utf8.firstIndex(of: UInt8(ascii: ";")) { utf8 = utf8[..<semicolon] }
        while let first = utf8.first, first == 0x20 || first == 0x09 { utf8 = utf8.dropFirst() }
        while let last = utf8.last, last == 0x20 || last == 0x09 { utf8 = utf8.dropLast() }
        return String(decoding: utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

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
    /// `cookie` (its session) and `x-forwarded-proto` (whether a proxy in front serves it over TLS).
    public static let collectedHeaders = ["authorization", "x-api-key", "content-type", "if-none-match", "idempotency-key", "x-request-id",
                                          "origin", "access-control-request-method", "host", "last-event-id", "cookie", "x-forwarded-proto"]
}
