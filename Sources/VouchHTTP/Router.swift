/// Matches a request's method and path to a handler; answers 404 and 405 itself.
public struct Router: Sendable {
    public typealias Handler = @Sendable (HTTPRequest, RouteParameters) throws -> HTTPResponse

    private struct Route: Sendable {
        var method: String
        var segments: [Segment]
        var handler: Handler
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
        routes.append(Route(method: method, segments: segments, handler: handler))
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
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        // HEAD is GET without the body; libmicrohttpd leaves the body out of a HEAD answer.
        let method = request.method == "HEAD" ? "GET" : request.method
        // The most specific pattern wins (a literal segment beats a parameter), so `/v1/fixes/{key}/status`
        // wins over `/v1/fixes/{key}/{action}`, and its methods alone make up a 405's Allow.
        var candidates: [(route: Route, parameters: RouteParameters)] = []
        var bestLiterals = -1
        for route in routes {
            guard let parameters = match(route.segments, parts) else { continue }
            let literals = route.segments.filter { if case .literal = $0 { true } else { false } }.count
            if literals > bestLiterals {
                bestLiterals = literals
                candidates = [(route, parameters)]
            } else if literals == bestLiterals {
                candidates.append((route, parameters))
            }
        }
        guard !candidates.isEmpty else { throw Problem(status: 404, detail: "no such route: \(request.path)") }
        if let chosen = candidates.first(where: { $0.route.method == method }) {
            return try chosen.route.handler(request, chosen.parameters)
        }
        var allowed = candidates.map(\.route.method)
        if allowed.contains("GET") { allowed.append("HEAD") }
        throw Problem(status: 405, detail: "\(request.method) is not allowed on \(request.path); allowed: \(allowed.joined(separator: ", "))",
                      headers: [(name: "Allow", value: allowed.joined(separator: ", "))])
    }

    private func match(_ segments: [Segment], _ parts: [String]) -> RouteParameters? {
        guard segments.count == parts.count else { return nil }
        var parameters = RouteParameters()
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let text): if text != part { return nil }
            case .parameter(let name): parameters.values[name] = part
            }
        }
        return parameters
    }
}

/// The values of a route's `{name}` segments.
public struct RouteParameters: Sendable {
    public var values: [String: String] = [:]

    public init() {}

    public subscript(name: String) -> String { values[name] ?? "" }
}
