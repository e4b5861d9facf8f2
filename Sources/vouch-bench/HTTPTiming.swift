import Foundation
import VouchClient

/// Times one GET (or, with a body, POST) over HTTP, as a client sees it: libcurl with keep-alive (one connection for every call), from before
/// the request is written until the whole answer is read. Each answer is checked (200 and an expected substring).
enum HTTPTiming {
    /// - Parameter console: `url` is a console page, read in the session that signing in with `token` opens.
    static func run(label: String, url: String, token: String, calls: Int, warmUp: Int, expect: String?, body: [UInt8]? = nil, console: Bool = false) throws {
        let client = HTTPClient(timeoutSeconds: 30)
        let method = body == nil ? "GET" : "POST"
        var headers = [("Authorization", "Bearer \(token)"), ("Accept", "application/json")]
        if console, let origin = url.range(of: "/console/").map({ String(url[..<$0.lowerBound]) }) {
            headers = [("Cookie", try ConsoleBench.signIn(origin, token: token)), ("Accept", "text/html")]
        }
        if body != nil { headers.append(("Content-Type", "application/json")) }
        let clock = ContinuousClock()
        func call() throws -> (Double, HTTPClient.Response) {
            let start = clock.now
            let response = try client.send(method: method, url: url, headers: headers, body: body)
            let elapsed = Report.milliseconds(clock.now - start)
            guard response.status == 200 else { throw BenchError("\(method) \(url) answered \(response.status): \(response.text.prefix(300))") }
            if let expect, !response.text.contains(expect) {
                throw BenchError("\(method) \(url) answered without '\(expect)': \(response.text.prefix(300))")
            }
            return (elapsed, response)
        }
        // The first call also opens the connection and warms vouchd's reader connection and SQLite's page cache.
        let (first, sample) = try call()
        for _ in 0..<warmUp { _ = try call() }
        var times: [Double] = []
        for _ in 0..<calls { times.append(try call().0) }
        Report.line("\(label) answer bytes", String(sample.body.count))
        Report.line("\(label) first call ms (cold)", Report.fixed(first, 3))
        Report.line("\(label) calls", String(calls))
        Report.line("\(label) ms (median)", Report.fixed(Report.median(times), 3))
        Report.line("\(label) ms (max)", Report.fixed(times.max() ?? .nan, 3))
        Report.line("\(label) ms (min)", Report.fixed(times.min() ?? .nan, 3))
    }
}
