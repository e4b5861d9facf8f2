import VouchDomain
import VouchStore
import VouchHTTP

/// What a handler knows about the request beyond its bytes: who sent it and the route's parameters.
public struct RequestContext: Sendable {
    public var principal: Principal
    public var parameters: RouteParameters
    public var requestID: String
}

extension RequestContext {
    /// Whom the request's writes are for, with the credential the store confirms inside each write transaction.
    package var requester: Requester { Requester(principal) }
}
