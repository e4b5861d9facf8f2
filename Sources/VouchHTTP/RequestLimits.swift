/// How much of a request head the server will read: past these it answers itself, before any handler runs.
public struct RequestLimits: Sendable, Equatable {
    /// The request line and every header line together, as received (431 past it); `http.max_header_bytes`.
    public var maxHeaderBytes: Int
    /// The request target, path and query, as sent (414 past it).
    public var maxTargetBytes: Int
    /// `name=value` pairs in the query (414 past it). libmicrohttpd keeps each in the connection's memory.
    public var maxQueryParameters: Int

    public init(maxHeaderBytes: Int = 16 * 1024, maxTargetBytes: Int = 8 * 1024, maxQueryParameters: Int = 100) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxTargetBytes = maxTargetBytes
        self.maxQueryParameters = maxQueryParameters
    }

    /// The header limits an operator may set: at least 4 KiB, a request line and the usual headers with room to
    /// spare; at most 64 KiB, since every connection holds 8 KiB more than the limit (`connectionMemoryBytes`).
    public static let headerBytesRange = 4 * 1024...64 * 1024

    /// libmicrohttpd's memory per connection (`MHD_OPTION_CONNECTION_MEMORY_LIMIT`): the header limit and 8 KiB
    /// more, so a head somewhat over the limit still fits and gets the server's own 431 rather than libmicrohttpd's.
    /// Not more: libmicrohttpd 0.9.75 clears the whole of it after every request and half of it again before each
    /// answer, so this memory is the largest cost per OFREP request that a setting controls (docs/architecture.md,
    /// "The OFREP hot path"; `http.max_header_bytes` lowers it where clients send small heads).
    var connectionMemoryBytes: Int { maxHeaderBytes + 8 * 1024 }
}
