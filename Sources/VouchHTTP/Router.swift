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
        var allowedMethods: [String] = []
        // A literal segment beats a parameter, so `/v1/fixes/{key}/targets` wins over `/v1/fixes/{key}/{action}`.
        var best: (route: Route, parameters: RouteParameters, literals: Int)?
        for route in routes {
            guard let parameters = match(route.segments, parts) else { continue }
            guard route.method == request.method else {
                if !allowedMethods.contains(route.method) { allowedMethods.append(route.method) }
                continue
            }
            let literals = route.segments.filter { if case .literal = $0 { true } else { false } }.count
            if best == nil || literals > best!.literals { best = (route, parameters, literals) }
        }
        if let best { return try best.route.handler(request, best.parameters) }
        if !allowedMethods.isEmpty {
            throw Problem(status: 405, detail: "\(request.method) is not allowed on \(request.path); allowed: \(allowedMethods.joined(separator: ", "))",
                          headers: [(name: "Allow", value: allowedMethods.joined(separator: ", "))])
        }
        throw Problem(status: 404, detail: "no such route: \(request.path)")
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
