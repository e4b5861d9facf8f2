/// Reading a request's collected headers by lowercased name, whether copied (`HTTPHeaders`, in an `HTTPRequest`) or
/// read where libmicrohttpd keeps them (`DirectRequest`, for the direct handler): code that only reads headers, such
/// as the token a request presents or its `Origin`, serves both. Noncopyable conformers are allowed, so that a
/// lent request can be read without being copied or kept.
public protocol HeaderReading: ~Copyable {
    /// Whether a header named `name` (lowercased) is there, without reading its value.
    func contains(_ name: String) -> Bool
    /// Calls `body` with the value's bytes, nil when there is no such header.
    func withValueBytes<Result>(_ name: String, _ body: (UnsafeRawBufferPointer?) -> Result) -> Result
}

extension HeaderReading where Self: ~Copyable {
    /// The value of the header named `name` (lowercased) as text, invalid UTF-8 repaired; nil when there is none.
    @inlinable
    public func value(_ name: String) -> String? {
        withValueBytes(name) { bytes in bytes.map { String(decoding: $0, as: UTF8.self) } }
    }
}
