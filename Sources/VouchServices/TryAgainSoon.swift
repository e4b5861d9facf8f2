/// A check that could not be made now, such as a host name lookup while the resolver is overloaded: the same request
/// may pass in a moment. The API answers it as 503 with `Retry-After`.
public struct TryAgainSoon: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
