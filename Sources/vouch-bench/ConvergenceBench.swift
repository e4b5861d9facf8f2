import Foundation
import VouchClient
import VouchJSON

/// Several vouchd on one PostgreSQL database: how long a change made through one node takes until every other node
/// answers it (the nodes follow each other through LISTEN/NOTIFY and a poll of the configuration revision each second;
/// docs/storage.md).
///
/// Through node A (the first URL) it creates an `sdk` token, then a fix in testing, and waits until every other node
/// evaluates the fix. Then it makes `changes` changes through A, adding and removing in turn one direct targeting key,
/// so the flag's value for that key goes true, false, true… For each change, t0 is when A's 2xx answer has been read;
/// then the other nodes are asked, round robin with no pause, one keep-alive connection each, for the single-flag
/// OFREP evaluation of that key, until each answers the new value. Convergence is the time from t0 until the answer of
/// the last node to show it was read (so it includes that answer's round trip, about a tenth of a millisecond here).
enum ConvergenceBench {
    struct Configuration {
        var urls: [String]
        var adminToken: String
        var changes: Int
        var timeoutSeconds: Double
    }

    static func run(_ configuration: Configuration) throws {
        guard configuration.urls.count >= 2 else { throw BenchError("--urls needs at least two base URLs, comma-separated: the node changed first, then the nodes that follow it") }
        let api = BenchAPI(base: configuration.urls[0], token: configuration.adminToken)
        let run = randomAlphanumeric(count: 6).lowercased()
        let fix = "ios.convergence-bench.\(run)"
        let targetingKey = "bench-converge-\(run)"
        let sdkToken = try api.call("POST", "/v1/tokens", ["name": .string("bench-convergence-sdk-\(run)"), "role": .string("sdk")])["token"]?.stringValue
        guard let sdkToken else { throw BenchError("no token in the answer of POST /v1/tokens") }
        _ = try api.call("POST", "/v1/fixes", ["key": .string(fix), "title": .string("Convergence bench"), "ui_area": .string("Player controls"),
                                               "platforms": .strings(["ios"])])
        _ = try api.call("POST", "/v1/fixes/\(fix)/start", nil)
        let followers = configuration.urls.dropFirst().map { FlagProbe(baseURL: $0, fix: fix, targetingKey: targetingKey) }
        let clock = ContinuousClock()

        // The token and the fix reach the other nodes the way every change does, in order. Until then they are asked
        // with the admin token, which every node loaded at its start: a token a node does not know yet would count
        // as a guess against the client's address (20 a minute, then 429).
        let setUp = clock.now
        for follower in followers {
            while try follower.evaluate(token: configuration.adminToken, acceptingUnknownFlag: true)?.value != false {
                guard clock.now - setUp < .milliseconds(Int(configuration.timeoutSeconds * 1_000)) else {
                    throw BenchError("\(follower.url) did not evaluate the new fix \(fix) within \(configuration.timeoutSeconds) s")
                }
            }
        }
        Report.line("Convergence set-up: fix and sdk token known to every node ms", Report.fixed(Report.milliseconds(clock.now - setUp), 1))

        var convergence: [Double] = []
        var answers: [Double] = []
        var polls: [Double] = []
        var alreadyShown = 0
        var revisions = Array(repeating: Int64(0), count: followers.count)
        for number in 0..<configuration.changes {
            let expected = number % 2 == 0
            let change: JSONObject = [expected ? "add" : "remove": .strings([targetingKey])]
            let sent = clock.now
            _ = try api.call("POST", "/v1/fixes/\(fix)/targets", change)
            let t0 = clock.now
            answers.append(Report.milliseconds(t0 - sent))
            var pending = Array(followers.indices)
            var lastShown = t0
            var rounds = 0
            while !pending.isEmpty {
                rounds += 1
                for index in pending {
                    guard let answer = try followers[index].evaluate(token: sdkToken, acceptingUnknownFlag: false) else { continue }
                    guard answer.revision >= revisions[index] else {
                        throw BenchError("\(followers[index].url) answered at revision \(answer.revision) after \(revisions[index]): a node's revision went back")
                    }
                    revisions[index] = answer.revision
                    if answer.value == expected {
                        lastShown = clock.now
                        pending.removeAll { $0 == index }
                    }
                }
                guard clock.now - t0 < .milliseconds(Int(configuration.timeoutSeconds * 1_000)) else {
                    throw BenchError("change \(number + 1) (\(expected ? "add" : "remove") target) did not reach every node within \(configuration.timeoutSeconds) s")
                }
            }
            if rounds == 1 { alreadyShown += 1 }
            polls.append(Double(rounds))
            convergence.append(Report.milliseconds(lastShown - t0))
        }
        let sorted = convergence.sorted()
        Report.line("Convergence nodes following", String(followers.count))
        Report.line("Convergence changes", String(configuration.changes))
        Report.line("Convergence ms p50", Report.fixed(Report.percentile(sorted, 0.5), 2))
        Report.line("Convergence ms p99", Report.fixed(Report.percentile(sorted, 0.99), 2))
        Report.line("Convergence ms max", Report.fixed(sorted.last ?? .nan, 2))
        Report.line("Convergence changes every node showed at its first poll", String(alreadyShown))
        Report.line("Convergence polling rounds per change (median)", Report.fixed(Report.median(polls), 1))
        Report.line("Convergence change answered by node A ms (median)", Report.fixed(Report.median(answers), 2))
        Report.line("Convergence configuration revisions last answered by the followers", revisions.map(String.init).joined(separator: " "))
    }
}

/// One node's single-flag OFREP evaluation of one targeting key, over a keep-alive connection of its own.
final class FlagProbe {
    struct Answer {
        var value: Bool
        var revision: Int64
    }

    let url: String
    private let client = HTTPClient(timeoutSeconds: 10)
    private let body: [UInt8]

    init(baseURL: String, fix: String, targetingKey: String) {
        url = baseURL + "/ofrep/v1/evaluate/flags/" + fix
        body = JSONWriter.bytes(.object(["context": .object(["targetingKey": .string(targetingKey)])]))
    }

    /// The flag's value and the configuration revision it was evaluated at.
    /// - Parameter acceptingUnknownFlag: answers nil to a 404 (the node does not know the fix yet).
    func evaluate(token: String, acceptingUnknownFlag: Bool) throws -> Answer? {
        let headers = [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")]
        let response = try client.send(method: "POST", url: url, headers: headers, body: body)
        if acceptingUnknownFlag, response.status == 404 { return nil }
        guard response.status == 200 else { throw BenchError("POST \(url) answered \(response.status): \(response.text.prefix(300))") }
        guard let value = try JSONParser.parse(response.body)["value"]?.boolValue else {
            throw BenchError("POST \(url) answered without a boolean value: \(response.text.prefix(300))")
        }
        guard let revision = response.headers["vouch-configuration-revision"].flatMap({ Int64($0) }) else {
            throw BenchError("POST \(url) answered without a Vouch-Configuration-Revision header")
        }
        return Answer(value: value, revision: revision)
    }
}
