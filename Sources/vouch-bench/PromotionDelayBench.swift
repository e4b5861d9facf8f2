import Foundation
import Synchronization
import VouchClient
import VouchCodec
import VouchDomain
import VouchHTTP
import VouchJSON

/// The delay from the last promotion criterion being met to the first `fix.promoted` delivery attempt reaching a
/// required webhook receiver, against a running vouchd (started by scripts/bench with the criteria it needs).
///
/// - `approval`: the approval is the last criterion (vouchd started with `criteria.min_soak = 0`): t0 is taken right
///   before `POST /v1/fixes/{key}/approvals` is sent.
/// - `soak`: the end of the soak is the last criterion (vouchd started with `criteria.min_soak = <soak-seconds>`),
///   the approval given at once: t0 is the fix's `testing_since` plus the soak, from vouchd's own answer.
///
/// t1 is when the receiver (a libmicrohttpd server in this process, answering 204) has the request. Both are read
/// from the wall clock (CLOCK_REALTIME) of this machine, with microsecond resolution.
enum PromotionDelayBench {
    static func run(url: String, token: String, mode: String, repetitions: Int, soakSeconds: Double) throws {
        guard mode == "approval" || mode == "soak" else { throw BenchError("--mode must be approval or soak") }
        let receiver = Receiver()
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threadCount: 1), responder: receiver.handle)
        let port = try server.start()
        defer { server.stop() }
        let api = BenchAPI(base: url, token: token)

        // A required receiver of fix.promoted only: the promotion waits for its 2xx.
        _ = try api.call("POST", "/v1/webhooks", ["url": .string("http://127.0.0.1:\(port)/hook"), "events": .strings([WebhookEventType.fixPromoted.rawValue]), "required": .bool(true)])
        let run = randomAlphanumeric(count: 6)
        let managerToken = try api.call("POST", "/v1/tokens", ["name": .string("bench-release-manager-\(run)"), "role": .string("release_manager")])["token"]?.stringValue
        guard let managerToken else { throw BenchError("no token in the answer of POST /v1/tokens") }
        let tester = try api.call("POST", "/v1/testers", [
            "name": .string("Promotion bench tester"), "assistive_tech": .strings(["voiceover:ios"]), "targeting_keys": .strings(["bench-promotion-\(run)"]),
            "consent": .string("v1"),
        ])["id"]?.stringValue
        guard let tester else { throw BenchError("no id in the answer of POST /v1/testers") }

        /// Creates and starts a fix, enrolls the tester and records passing VoiceOver feedback; returns the start time.
        func prepare(_ key: String) throws -> Date {
            _ = try api.call("POST", "/v1/fixes", ["key": .string(key), "title": .string("Promotion bench"), "ui_area": .string("Player controls"),
                                                   "platforms": .strings(["ios"])])
            let started = try api.call("POST", "/v1/fixes/\(key)/start", nil)
            guard let text = started["testing_since"]?.stringValue, let since = Timestamp.date(text) else {
                throw BenchError("no testing_since in the answer of POST /v1/fixes/\(key)/start")
            }
            _ = try api.call("POST", "/v1/fixes/\(key)/enrollments", ["testers": .strings([tester])])
            _ = try api.call("POST", "/v1/fixes/\(key)/feedback", [
                "tester": .string(tester), "verdict": .string("passed"), "task_outcome": .string("completed_independently"), "severity": .string("none"),
                "platform": .string("ios"), "os_version": .string("18"), "app_build": .string("1"), "assistive_tech": .string("voiceover"),
            ])
            return since
        }
        func approve(_ key: String) throws {
            _ = try api.call("POST", "/v1/fixes/\(key)/approvals", ["decision": .string("approve")], token: managerToken)
        }

        var delays: [Double] = []
        var answers: [Double] = []
        var keys: [String] = []
        if mode == "approval" {
            for number in 0..<repetitions {
                let key = "ios.promotion-bench.\(run)-approval-\(number)"
                keys.append(key)
                _ = try prepare(key)
                let state = try api.call("GET", "/v1/fixes/\(key)", nil)["state"]?.stringValue
                guard state == "testing" else { throw BenchError("fix \(key) is \(state ?? "?") before its approval; is criteria.min_soak 0?") }
                let t0 = wallClockSeconds()
                try approve(key)
                answers.append((wallClockSeconds() - t0) * 1_000)
                guard let t1 = receiver.waitForPromotion(of: key, timeoutSeconds: 10) else {
                    throw BenchError("no fix.promoted for \(key) reached the receiver within 10 s (is the approval the last criterion missing?)")
                }
                delays.append((t1 - t0) * 1_000)
            }
        } else {
            // Fixes started one after another, `stagger` apart, all prepared before the first soak ends, so no API
            // traffic overlaps a promotion and the soak ends come one at a time.
            let stagger = min(0.15, soakSeconds * 0.6 / Double(repetitions))
            var dues: [Double] = []
            let clock = ContinuousClock()
            let first = clock.now
            for number in 0..<repetitions {
                let key = "ios.promotion-bench.\(run)-soak-\(number)"
                keys.append(key)
                let since = try prepare(key)
                try approve(key)
                let due = since.timeIntervalSince1970 + soakSeconds
                guard wallClockSeconds() < due else { throw BenchError("preparing \(key) took longer than the soak (\(soakSeconds) s)") }
                let state = try api.call("GET", "/v1/fixes/\(key)", nil)["state"]?.stringValue
                guard state == "testing" else { throw BenchError("fix \(key) is \(state ?? "?") before its soak ended; is criteria.min_soak \(soakSeconds) s?") }
                dues.append(due)
                let next = first + .milliseconds(Int(stagger * 1_000 * Double(number + 1)))
                if clock.now < next { Thread.sleep(forTimeInterval: Report.milliseconds(next - clock.now) / 1_000) }
            }
            for (key, due) in zip(keys, dues) {
                guard let t1 = receiver.waitForPromotion(of: key, timeoutSeconds: soakSeconds + 10) else {
                    throw BenchError("no fix.promoted for \(key) reached the receiver within \(soakSeconds + 10) s of its start")
                }
                delays.append((t1 - due) * 1_000)
            }
        }
        // Each promotion completed: the receiver's 204 was recorded and settled the fix as released.
        for key in keys {
            var state: String?
            for _ in 0..<500 {
                state = try api.call("GET", "/v1/fixes/\(key)", nil)["state"]?.stringValue
                if state == "released" { break }
                usleep(10_000)
            }
            guard state == "released" else { throw BenchError("fix \(key) is \(state ?? "?"), not released, 5 s after its fix.promoted was answered 204") }
        }
        let requests = receiver.requestCount
        guard requests == repetitions else { throw BenchError("the receiver got \(requests) requests for \(repetitions) promotions") }

        let label = mode == "approval" ? "Promotion delay after the approval" : "Promotion delay after the soak ended"
        Report.line("\(label), repetitions", String(repetitions))
        Report.line("\(label), runs ms", Report.list(delays, 2))
        Report.line("\(label) ms (median)", Report.fixed(Report.median(delays), 2))
        Report.line("\(label) ms (max)", Report.fixed(delays.max() ?? .nan, 2))
        if !answers.isEmpty { Report.line("Approval request answered ms (median)", Report.fixed(Report.median(answers), 2)) }
        Report.line("\(label), fix.promoted requests received and fixes released", "\(requests), \(keys.count)")
    }

    static func wallClockSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec / 1_000) / 1e6
    }
}

/// The webhook receiver's memory: when each fix's `fix.promoted` request arrived.
final class Receiver: Sendable {
    private struct State {
        var arrivals: [String: Double] = [:]
        var requests = 0
    }

    private let state = Mutex(State())
    private let condition = ReceiverCondition()

    var requestCount: Int { state.withLock { $0.requests } }

    @Sendable func handle(_ request: HTTPRequest) -> HTTPResponse {
        let at = PromotionDelayBench.wallClockSeconds()
        let body = try? JSONParser.parse(request.body)
        let fix = body?["data"]?["fix"]?.stringValue
        condition.value.lock()
        state.withLock { state in
            state.requests += 1
            // The first attempt counts.
            if body?["type"]?.stringValue == WebhookEventType.fixPromoted.rawValue, let fix, state.arrivals[fix] == nil { state.arrivals[fix] = at }
        }
        condition.value.broadcast()
        condition.value.unlock()
        return .empty(204)
    }

    func waitForPromotion(of key: String, timeoutSeconds: Double) -> Double? {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        condition.value.lock()
        defer { condition.value.unlock() }
        while true {
            if let at = state.withLock({ $0.arrivals[key] }) { return at }
            if !condition.value.wait(until: deadline) { return state.withLock { $0.arrivals[key] } }
        }
    }
}

/// `@unchecked Sendable`: NSCondition is thread-safe by design.
final class ReceiverCondition: @unchecked Sendable {
    let value = NSCondition()
}

/// vouchd's JSON API over one keep-alive connection; any answer but 2xx is an error.
final class BenchAPI {
    let base: String
    let token: String
    let client = HTTPClient(timeoutSeconds: 30)

    init(base: String, token: String) {
        self.base = base
        self.token = token
    }

    func call(_ method: String, _ path: String, _ body: JSONObject?, token: String? = nil) throws -> JSONValue {
        var headers = [("Authorization", "Bearer \(token ?? self.token)"), ("Accept", "application/json")]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        let response = try client.send(method: method, url: base + path, headers: headers, body: body.map { JSONWriter.bytes(.object($0)) })
        guard (200...299).contains(response.status) else { throw BenchError("\(method) \(path) answered \(response.status): \(response.text.prefix(400))") }
        return response.body.isEmpty ? .null : try JSONParser.parse(response.body)
    }
}
