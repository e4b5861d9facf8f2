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

    /// libmicrohttpd's memory per connection (`MHD_OPTION_CONNECTION_MEMORY_LIMIT`): room for twice the header
    /// limit, so a head over the limit still fits and gets the server's own 431 rather than libmicrohttpd's.
    var connectionMemoryBytes: Int { max(32 * 1024, 2 * maxHeaderBytes) }
}
