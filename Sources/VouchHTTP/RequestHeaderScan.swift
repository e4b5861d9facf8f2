import CMicroHTTPD
import Foundation

/// One pass over a request's header lines: the headers Vouch reads, and what decides how the body is framed
/// (RFC 9112 §6.3), which libmicrohttpd 0.9.75 does not check: with both `Content-Length` and
/// `Transfer-Encoding` it goes by the latter, with two `Content-Length`s by the first, and with a transfer coding
/// it does not know it reads the body until the connection closes. Any of these lets a request hide another.
struct RequestHeaderScan {
    /// Values by lowercased name, first occurrence only; only the names the server was configured to collect.
    var headers: [String: String] = [:]
    var contentLengthLines = 0
    /// The first `Content-Length`, which libmicrohttpd checked was a number before calling the handler.
    var contentLength: Int?
    var hostLines = 0
    /// Every `Transfer-Encoding` line; empty for nearly all requests.
    var transferEncodings: [String] = []

    /// The names to collect, lowercased, as bytes to compare without making a String per header line.
    struct Names {
        let collected: [(name: String, bytes: [UInt8])]

        init(_ names: [String]) {
            collected = names.map { ($0.lowercased(), Array($0.lowercased().utf8)) }
        }
    }

    private static let contentLengthName = Array("content-length".utf8)
    private static let transferEncodingName = Array("transfer-encoding".utf8)
    private static let hostName = Array("host".utf8)

    init(headers: [String: String] = [:], contentLengthLines: Int = 0, contentLength: Int? = nil, hostLines: Int = 0,
         transferEncodings: [String] = []) {
        self.headers = headers
        self.contentLengthLines = contentLengthLines
        self.contentLength = contentLength
        self.hostLines = hostLines
        self.transferEncodings = transferEncodings
    }

    /// Reads every header line of the connection's current request.
    init(_ connection: OpaquePointer, names: Names) {
        var context = (scan: RequestHeaderScan(), names: names)
        withUnsafeMutablePointer(to: &context) { pointer in
            _ = MHD_get_connection_values_n(connection, MHD_ValueKind.HEADER_KIND, RequestHeaderScan.iterator, pointer)
        }
        self = context.scan
    }

    private static let iterator: MHD_KeyValueIteratorN = { context, _, key, keySize, value, valueSize in
        guard let context, let key else { return .YES }
        let pointer = context.assumingMemoryBound(to: (scan: RequestHeaderScan, names: Names).self)
        let name = UnsafeRawBufferPointer(start: key, count: keySize)
        let text = { String(decoding: UnsafeRawBufferPointer(start: value, count: value == nil ? 0 : valueSize), as: UTF8.self) }
        pointer.pointee.scan.add(name: name, value: text, names: pointer.pointee.names)
        return .YES
    }

    mutating func add(name: UnsafeRawBufferPointer, value: () -> String, names: Names) {
        if RequestHeaderScan.equalsIgnoringCase(name, RequestHeaderScan.contentLengthName) {
            contentLengthLines += 1
            if contentLengthLines == 1 { contentLength = Int(value()) }
        } else if RequestHeaderScan.equalsIgnoringCase(name, RequestHeaderScan.transferEncodingName) {
            transferEncodings.append(value())
        } else if RequestHeaderScan.equalsIgnoringCase(name, RequestHeaderScan.hostName) {
            hostLines += 1
        }
        for collected in names.collected where headers[collected.name] == nil && RequestHeaderScan.equalsIgnoringCase(name, collected.bytes) {
            headers[collected.name] = value()
        }
    }

    /// Whether the request has a body to read: a length above zero, or chunks.
    var expectsBody: Bool { (contentLength ?? 0) > 0 || !transferEncodings.isEmpty }

    /// Why the server refuses this request's framing or head, or nil when it may go on.
    /// - Parameter version: the request's HTTP version, such as `HTTP/1.1`.
    func problem(version: String, headerBytes: Int, limits: RequestLimits) -> Problem? {
        if headerBytes > limits.maxHeaderBytes {
            return Problem(status: 431, detail: "the request line and headers are \(headerBytes) bytes; at most \(limits.maxHeaderBytes) are allowed")
        }
        if hostLines > 1 { return Problem(status: 400, detail: "the request has \(hostLines) Host headers; exactly one is allowed") }
        if hostLines == 0, version != "HTTP/1.0" { return Problem(status: 400, detail: "an \(version) request needs a Host header") }
        if contentLengthLines > 1 {
            return Problem(status: 400, detail: "the request has \(contentLengthLines) Content-Length headers; one at most, so the body's end is not in doubt")
        }
        guard !transferEncodings.isEmpty else { return nil }
        if contentLengthLines > 0 {
            return Problem(status: 400, detail: "the request has both Content-Length and Transfer-Encoding; send one, so the body's end is not in doubt")
        }
        if version == "HTTP/1.0" { return Problem(status: 400, detail: "Transfer-Encoding is not part of HTTP/1.0; send Content-Length") }
        let codings = transferEncodings.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if let unknown = codings.first(where: { $0 != "chunked" }) {
            return Problem(status: 501, detail: "the transfer coding '\(unknown.prefix(64))' is not supported; only chunked is")
        }
        if codings.count != 1 { return Problem(status: 400, detail: "chunked may be applied once; Transfer-Encoding lists it \(codings.count) times") }
        return nil
    }

    static func equalsIgnoringCase(_ name: UnsafeRawBufferPointer, _ lowercased: [UInt8]) -> Bool {
        name.count == lowercased.count && zip(name, lowercased).allSatisfy { ($0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0) == $1 }
    }
}
