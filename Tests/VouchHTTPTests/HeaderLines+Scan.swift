@testable import VouchHTTP
import VouchTestSupport

extension HeaderLines {
    /// Scans `lines` in order into `scan` and `received` with the server's own code (`RequestHeaderScan.add`), then
    /// calls `body` while their bytes are still there.
    static func read<Result>(_ lines: [(String, String)], names: RequestHeaderScan.Names, into scan: inout RequestHeaderScan,
                             _ received: ReceivedHeaders, _ body: () throws -> Result) rethrows -> Result {
        try read(lines, each: { scan.add(name: $0, value: $1, names: names, into: received) }, body)
    }

    /// The headers `received` holds, copied as the server copies them for the general handler.
    static func copied(_ received: ReceivedHeaders) -> HTTPHeaders {
        var headers = HTTPHeaders()
        received.copy(into: &headers)
        return headers
    }
}
