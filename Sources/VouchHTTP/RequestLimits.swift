/// How much of a request head the server will read: past these it answers itself, before any handler runs.
public struct RequestLimits: Sendable, Equatable {
    /// The request line and every header line together, as received (431 past it).
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

    /// libmicrohttpd's memory per connection (`MHD_OPTION_CONNECTION_MEMORY_LIMIT`): the header limit and 8 KiB
    /// more, so a head somewhat over the limit still fits and gets the server's own 431 rather than libmicrohttpd's.
    /// Not more: libmicrohttpd 0.9.75 clears the whole of it after every request, and at 32 KiB that clearing
    /// cost more CPU per OFREP request than all of the server's own checks.
    var connectionMemoryBytes: Int { maxHeaderBytes + 8 * 1024 }
}
