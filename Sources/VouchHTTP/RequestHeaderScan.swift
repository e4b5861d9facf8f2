import CMicroHTTPD
import Foundation

/// One pass over a request's header lines: the headers Vouch reads, and what decides how the body is framed
/// (RFC 9112 §6.3), which libmicrohttpd 0.9.75 does not check: with both `Content-Length` and
/// `Transfer-Encoding` it goes by the latter, with two `Content-Length`s by the first, and with a transfer coding
/// it does not know it reads the body until the connection closes. Any of these lets a request hide another.
struct RequestHeaderScan {
    /// Values by lowercased name, first occurrence only; only the names the server was configured to collect.
    var headers = HTTPHeaders()
    var contentLengthLines = 0
    /// The first `Content-Length`, which libmicrohttpd checked was a number before calling the handler.
    var contentLength: Int?
    var hostLines = 0
    /// Every `Transfer-Encoding` line; empty for nearly all requests.
    var transferEncodings: [String] = []
    let names: Names

    /// The names to collect, lowercased, as bytes to compare without making a String per header line; apart,
    /// so that the loop over them on every header line compares lengths without touching a reference.
    /// A class, made once per server: the scan of each request holds it with one reference count, not four arrays'.
    final class Names: Sendable {
        let keys: [String]
        let bytes: [[UInt8]]
        /// The indexes of the names ordered by length, and where each length starts in that order (one past the
        /// longest name: the end): a header line is compared with only the names as long as it, nearly always one
        /// or none. Flat arrays, as an array per length cost a retain and a release per header line.
        let byLength: [Int]
        let lengthStarts: [Int]

        init(_ names: [String]) {
            var unique: [String] = []
            for name in names.map({ $0.lowercased() }) where !unique.contains(name) { unique.append(name) }
            precondition(unique.count <= 64, "at most 64 request headers can be collected, \(unique.count) were asked for")
            let lengths = unique.map(\.utf8.count)
            keys = unique
            bytes = unique.map { Array($0.utf8) }
            byLength = lengths.indices.sorted { (lengths[$0], $0) < (lengths[$1], $1) }
            lengthStarts = (0...((lengths.max() ?? 0) + 1)).map { length in lengths.filter { $0 < length }.count }
        }
    }

    /// Which of `names` were seen (bit i for `names.keys[i]`): only the first line of a name is kept.
    private var collected: UInt64 = 0

    private static let contentLengthName: StaticString = "content-length"
    private static let transferEncodingName: StaticString = "transfer-encoding"
    private static let hostName: StaticString = "host"

    init(headers: HTTPHeaders = [:], contentLengthLines: Int = 0, contentLength: Int? = nil, hostLines: Int = 0,
         transferEncodings: [String] = [], names: Names = Names([])) {
        self.headers = headers
        self.contentLengthLines = contentLengthLines
        self.contentLength = contentLength
        self.hostLines = hostLines
        self.transferEncodings = transferEncodings
        self.names = names
    }

    /// Reads every header line of the connection's current request.
    init(_ connection: OpaquePointer, names: Names) {
        var scan = RequestHeaderScan(names: names)
        withUnsafeMutablePointer(to: &scan) { pointer in
            _ = MHD_get_connection_values_n(connection, MHD_ValueKind.HEADER_KIND, RequestHeaderScan.iterator, pointer)
        }
        self = scan
    }

    private static let iterator: MHD_KeyValueIteratorN = { context, _, key, keySize, value, valueSize in
        guard let context, let key else { return .YES }
        let scan = context.assumingMemoryBound(to: RequestHeaderScan.self)
        scan.pointee.add(name: UnsafeRawBufferPointer(start: key, count: keySize),
                         value: UnsafeRawBufferPointer(start: value, count: value == nil ? 0 : valueSize))
        return .YES
    }

    /// One header line.
    mutating func add(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        switch name.count {
        case 14 where RequestHeaderScan.equalsIgnoringCase(name, RequestHeaderScan.contentLengthName):
            contentLengthLines += 1
            if contentLengthLines == 1 { contentLength = RequestHeaderScan.decimal(value) }
        case 17 where RequestHeaderScan.equalsIgnoringCase(name, RequestHeaderScan.transferEncodingName):
            transferEncodings.append(String(decoding: value, as: UTF8.self))
        case 4 where RequestHeaderScan.equalsIgnoringCase(name, RequestHeaderScan.hostName):
            hostLines += 1
        default:
            break
        }
        guard name.count + 1 < names.lengthStarts.count else { return }
        for position in names.lengthStarts[name.count]..<names.lengthStarts[name.count + 1] {
            let index = names.byLength[position]
            guard collected & (1 << UInt64(index)) == 0, RequestHeaderScan.equalsIgnoringCase(name, names.bytes[index]) else { continue }
            collected |= 1 << UInt64(index)
            headers.append(name: names.keys[index], bytes: value)
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
        lowercased.withUnsafeBytes { equalsIgnoringCase(name, $0) }
    }

    /// A literal's bytes stay where they are for the life of the process: compared without retaining an array.
    static func equalsIgnoringCase(_ name: UnsafeRawBufferPointer, _ lowercased: StaticString) -> Bool {
        equalsIgnoringCase(name, UnsafeRawBufferPointer(start: lowercased.utf8Start, count: lowercased.utf8CodeUnitCount))
    }

    static func equalsIgnoringCase(_ name: UnsafeRawBufferPointer, _ lowercased: UnsafeRawBufferPointer) -> Bool {
        guard name.count == lowercased.count else { return false }
        for offset in 0..<name.count {
            let byte = name[offset]
            if (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != lowercased[offset] { return false }
        }
        return true
    }

    /// A run of ASCII digits as a number; nil for anything else (empty, a sign, a blank) or past `Int.max`.
    /// libmicrohttpd answered a `Content-Length` that is not a decimal number before the server saw it.
    static func decimal(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard !bytes.isEmpty else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(byte - 0x30))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
        }
        return value
    }
}
