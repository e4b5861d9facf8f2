/// Matches a request's method and path to a handler; answers 404 and 405 itself.
public struct Router: Sendable {
    public typealias Handler = @Sendable (HTTPRequest, RouteParameters) throws -> HTTPResponse

    private struct Route: Sendable {
        var method: String
        var segments: [Segment]
        var handler: Handler
        /// Literal segments, counted once here rather than on every request.
        var literals: Int
    }

    private enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    private var routes: [Route] = []

    public init() {}

    /// Adds a route; `pattern` is a path such as `/v1/fixes/{key}/targets`.
    public mutating func add(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
        let segments = pattern.split(separator: "/", omittingEmptySubsequences: true).map { part -> Segment in
            part.hasPrefix("{") && part.hasSuffix("}") ? .parameter(String(part.dropFirst().dropLast())) : .literal(String(part))
        }
        let literals = segments.filter { if case .literal = $0 { true } else { false } }.count
        routes.append(Route(method: method, segments: segments, handler: handler, literals: literals))
    }

    /// Every `method pattern` pair, for checking the OpenAPI file covers each route.
    public var patterns: [String] {
        routes.map { route in
            route.method + " /" + route.segments.map { segment in
                switch segment {
                case .literal(let text): text
                case .parameter(let name): "{\(name)}"
                }
            }.joined(separator: "/")
        }
    }

    public func route(_ request: HTTPRequest) throws -> HTTPResponse {
        var matched = -1
        return try route(request, matchedRoute: &matched)
    }

    /// Routes the request and sets `matchedRoute` to the index of the route that answered (in `patterns`),
    /// or -1 when none did (404, 405), so metrics and logs can name the route rather than the raw path.
    public func route(_ request: HTTPRequest, matchedRoute: inout Int) throws -> HTTPResponse {
        matchedRoute = -1
        // Split the bytes: splitting a String by Character runs grapheme breaking over the whole path.
        let parts = request.path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
        // HEAD is GET without the body; libmicrohttpd leaves the body out of a HEAD answer.
        let method = request.method == "HEAD" ? "GET" : request.method
        // The most specific pattern wins (a literal segment beats a parameter), so `/v1/fixes/{key}/status`
        // wins over `/v1/fixes/{key}/{action}`, and its methods alone make up a 405's Allow.
        // Indexes of the matching routes: parameters are collected for the chosen one only.
        var candidates: [Int] = []
        var bestLiterals = -1
        for index in routes.indices where matches(routes[index].segments, parts) {
            let literals = routes[index].literals
            if literals > bestLiterals {
                bestLiterals = literals
                candidates = [index]
            } else if literals == bestLiterals {
                candidates.append(index)
            }
        }
        guard !candidates.isEmpty else { throw Problem(status: 404, detail: "no such route: \(request.path)") }
        if let chosen = candidates.first(where: { routes[$0].method == method }) {
            var parameters = RouteParameters()
            for (segment, part) in zip(routes[chosen].segments, parts) {
                if case .parameter(let name) = segment { parameters.values[name] = String(Substring(part)) }
            }
            matchedRoute = chosen
            return try routes[chosen].handler(request, parameters)
        }
        var allowed = candidates.map { routes[$0].method }
        if allowed.contains("GET") { allowed.append("HEAD") }
        throw Problem(status: 405, detail: "\(request.method) is not allowed on \(request.path); allowed: \(allowed.joined(separator: ", "))",
                      headers: [(name: "Allow", value: allowed.joined(separator: ", "))])
    }

    private func matches(_ segments: [Segment], _ parts: [Substring.UTF8View]) -> Bool {
        guard segments.count == parts.count else { return false }
        for (segment, part) in zip(segments, parts) {
            if case .literal(let text) = segment, !text.utf8.elementsEqual(part) { return false }
        }
        return true
    }
}

/// The values of a route's `{name}` segments.
public struct RouteParameters: Sendable {
    public var values: [String: String] = [:]

    public init() {}

    public subscript(name: String) -> String { values[name] ?? "" }
}
