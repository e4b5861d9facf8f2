@testable import VouchHTTP

/// Header lines as libmicrohttpd would hold them for a test: every name and value in one piece of memory that stays
/// where it is until `read` returns, since `ReceivedHeaders` keeps pointers into it as it keeps them into
/// libmicrohttpd's memory for a real request.
enum HeaderLines {
    /// Scans `lines` in order into `scan` and `received` with the server's own code (`RequestHeaderScan.add`), then
    /// calls `body` while their bytes are still there.
    static func read<Result>(_ lines: [(String, String)], names: RequestHeaderScan.Names, into scan: inout RequestHeaderScan,
                             _ received: ReceivedHeaders, _ body: () throws -> Result) rethrows -> Result {
        let total = lines.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count }
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, total), alignment: 1)
        defer { memory.deallocate() }
        var offset = 0
        for (name, value) in lines {
            let nameBytes = Array(name.utf8), valueBytes = Array(value.utf8)
            memory.baseAddress!.advanced(by: offset).copyMemory(from: nameBytes, byteCount: nameBytes.count)
            let nameRange = UnsafeRawBufferPointer(start: memory.baseAddress! + offset, count: nameBytes.count)
            offset += nameBytes.count
            memory.baseAddress!.advanced(by: offset).copyMemory(from: valueBytes, byteCount: valueBytes.count)
            let valueRange = UnsafeRawBufferPointer(start: memory.baseAddress! + offset, count: valueBytes.count)
            offset += valueBytes.count
            scan.add(name: nameRange, value: valueRange, names: names, into: received)
        }
        return try body()
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
