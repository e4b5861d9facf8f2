/// What looking up a host name gave.
public enum ResolveResult: Sendable, Equatable {
    /// The name's addresses as numeric text, in the resolver's order; never empty.
    case addresses([String])
    /// The name does not exist, or has no address (NXDOMAIN, or a name with no A or AAAA record).
    case notFound
    /// The lookup failed otherwise, in the resolver's words: a temporary DNS failure, an unusable resolver setup.
    case failed(String)
    /// No answer came within the caller's timeout; the lookup may still be running on its thread.
    case timedOut
    /// Too many lookups were already waiting for a thread, so this one was not started.
    case busy
}
