@testable import VouchHTTP
import VouchTestSupport

extension HeaderLines {
    /// Scans `lines` in order into `scan` and `received` with the server's own code (`RequestHeaderScan.add`), then
    /// calls `body` while their bytes are still there.
    static func read<Result>(_ lines: [(String, String)], names: RequestHeaderScan.Names, into scan: inout RequestHeaderScan,
                             _ received: ReceivedHeaders, _ body: () throws -> Result) rethrows -> Result {
        try read(lines, each: { scan.add(name: $0, value: $1, names: names, into: received) }, body)
    }

    /// The collected headers `headers` has (`HTTPRequest.collectedHeaders`), such as a direct handler's request's.
    static func collected(from headers: borrowing some HeaderReading & ~Copyable) -> HTTPHeaders {
        var copied = HTTPHeaders()
        for name in HTTPRequest.collectedHeaders { if let value = headers.value(name) { copied[name] = value } }
        return copied
    }

    /// A direct handler's request's bytes (its method, its path) as text.
    static func text(_ bytes: RawSpan) -> String {
        bytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The headers `received` holds, copied as the server copies them for the general handler.
    static func copied(_ received: ReceivedHeaders) -> HTTPHeaders {
        var headers = HTTPHeaders()
        received.copy(into: &headers)
        return headers
    }
}
