import Dispatch
import Synchronization

/// Matches a request's method and path to a handler; answers 404 and 405 itself.
public struct Router: Sendable {
    public typealias Handler = @Sendable (HTTPRequest, RouteParameters) throws -> HTTPResponse
    /// How a handler that answers later (after a group commit it does not wait for) delivers its answer or its error.
    public typealias Answer = @Sendable (Result<HTTPResponse, any Error>) -> Void
    /// A handler that answers through `Answer`, once, from any thread; what it throws is its answer too.
    public typealias LaterHandler = @Sendable (HTTPRequest, RouteParameters, @escaping Answer) throws -> Void

    /// A route's handler: one that answers before it returns, or one that answers later.
    private enum Way: Sendable {
        case now(Handler)
        case later(LaterHandler)
    }

    private struct Route: Sendable {
        var method: String
        var segments: [Segment]
        var way: Way
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
        add(method, pattern, way: .now(handler))
    }

    /// Adds a route whose handler answers later, through `Answer`: it hands its work to something that finishes it
    /// on another thread (a group commit) instead of keeping the calling thread waiting.
    public mutating func addLater(_ method: String, _ pattern: String, _ handler: @escaping LaterHandler) {
        add(method, pattern, way: .later(handler))
    }

    private mutating func add(_ method: String, _ pattern: String, way: Way) {
        let segments = pattern.split(separator: "/", omittingEmptySubsequences: true).map { part -> Segment in
            part.hasPrefix("{") && part.hasSuffix("}") ? .parameter(String(part.dropFirst().dropLast())) : .literal(String(part))
        }
        let literals = segments.filter { if case .literal = $0 { true } else { false } }.count
        routes.append(Route(method: method, segments: segments, way: way, literals: literals))
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
    /// A route that answers later is waited for here; the server uses `route(_:matchedRoute:answer:)` instead.
    public func route(_ request: HTTPRequest, matchedRoute: inout Int) throws -> HTTPResponse {
        matchedRoute = -1
        let (chosen, parameters) = try match(request)
        matchedRoute = chosen
        switch routes[chosen].way {
        case .now(let handler):
            return try handler(request, parameters)
        case .later(let handler):
            let answer = AnswerWait()
            try handler(request, parameters) { answer.set($0) }
            return try answer.wait()
        }
    }

    /// Routes the request and answers through `answer`, with the index of the route that answered (-1 for none):
    /// at once for most routes, later for a route added with `addLater`, from the thread that finished its work.
    /// Errors (404, 405, what a handler throws or answers with) are answers too.
    public func route(_ request: HTTPRequest, answer: @escaping @Sendable (Result<HTTPResponse, any Error>, Int) -> Void) {
        let chosen: Int
        let parameters: RouteParameters
        do {
            (chosen, parameters) = try match(request)
        } catch {
            return answer(.failure(error), -1)
        }
        do {
            switch routes[chosen].way {
            case .now(let handler):
                answer(.success(try handler(request, parameters)), chosen)
            case .later(let handler):
                try handler(request, parameters) { answer($0, chosen) }
            }
        } catch {
            answer(.failure(error), chosen)
        }
    }

    /// The route that answers the request and its parameters; throws 404 or 405.
    private func match(_ request: HTTPRequest) throws -> (route: Int, parameters: RouteParameters) {
        // HEAD is GET without the body; libmicrohttpd leaves the body out of a HEAD answer.
        let method = request.method == "HEAD" ? "GET" : request.method
        let parts = Router.segments(of: request.path)
        let candidates = candidates(for: parts)
        guard !candidates.isEmpty else { throw Problem(status: 404, detail: "no such route: \(request.path)") }
        if let chosen = candidates.first(where: { routes[$0].method == method }) {
            var parameters = RouteParameters()
            for (segment, part) in zip(routes[chosen].segments, parts) {
                if case .parameter(let name) = segment { parameters.values[name] = String(Substring(part)) }
            }
            return (chosen, parameters)
        }
        let allowed = methods(of: candidates)
        throw Problem(status: 405, detail: "\(request.method) is not allowed on \(request.path); allowed: \(allowed.joined(separator: ", "))",
                      headers: [(name: "Allow", value: allowed.joined(separator: ", "))])
    }

    /// The methods `path` answers, HEAD with GET, as a 405's `Allow` lists them; empty when no route matches.
    public func methods(forPath path: String) -> [String] {
        methods(of: candidates(for: Router.segments(of: path)))
    }

    private func methods(of candidates: [Int]) -> [String] {
        var allowed = candidates.map { routes[$0].method }
        if allowed.contains("GET") { allowed.append("HEAD") }
        return allowed
    }

    /// Indexes of the routes matching the path's segments with the most literal ones: a literal segment beats a parameter,
    /// so `/v1/fixes/{key}/status` wins over `/v1/fixes/{key}/{action}`, and its methods alone make up a 405's Allow.
    private func candidates(for parts: [Substring.UTF8View]) -> [Int] {
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
        return candidates
    }

    /// Split as bytes: splitting a String by Character runs grapheme breaking over the whole path.
    private static func segments(of path: String) -> [Substring.UTF8View] {
        path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
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

/// A later route's answer, waited for by a caller that cannot go on without it.
private final class AnswerWait: Sendable {
    private let answer = Mutex<Result<HTTPResponse, any Error>?>(nil)
    private let given = DispatchSemaphore(value: 0)

    func set(_ result: Result<HTTPResponse, any Error>) {
        answer.withLock { $0 = result }
        given.signal()
    }

    func wait() throws -> HTTPResponse {
        given.wait()
        guard let result = answer.withLock({ $0 }) else { throw Problem(status: 500, detail: "the route gave no answer") }
        return try result.get()
    }
}
