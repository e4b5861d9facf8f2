import Foundation
import Synchronization
import VouchClient
import VouchJSON

/// The web console under load, as testers use it: many sessions, each opened by its own personal link, reading the
/// feedback question page; and the weight of each main page (docs/console.md).
///
/// Two loads: every session at a person's pace taken to the extreme (`ratePerSession` pages a second each, so 50
/// sessions make 1,000 pages a second), and every session asking again the moment it has its answer (the most the
/// server answers on this machine, clients included). Every answer must be 200 and the expected page. Every other
/// session reads the page in Japanese (`vouch_lang=ja`), the rest in English, so both languages' figures come from
/// the same run under the same load.
enum ConsoleBench {
    struct Settings {
        var baseURL: String
        var adminToken: String
        var sessions: Int
        var seconds: Double
        var ratePerSession: Double
    }

    static let fixKey = "console-bench-fix"

    static func run(_ settings: Settings) throws {
        let api = BenchAPI(base: settings.baseURL, token: settings.adminToken)
        _ = try api.call("POST", "/v1/fixes", ["key": .string(fixKey), "title": .string("Label channel logos"), "ui_area": .string("TV channel selector"),
                                               "platforms": .strings(["ios"]), "wcag": .strings(["1.1.1", "4.1.2"]),
                                               "expected_announcement": .string("NHK, button, selected")])
        var cookies: [String] = []
        for index in 0..<settings.sessions {
            let tester = try api.call("POST", "/v1/testers", ["name": .string("Bench Tester \(index)"), "assistive_tech": .strings(["voiceover:ios:18.2"]),
                                                              "targeting_keys": .strings(["bench-key-\(index)"]), "consent": .string("v1")])
            guard let id = tester["id"]?.stringValue else { throw BenchError("no tester id") }
            _ = try api.call("POST", "/v1/fixes/\(fixKey)/enrollments", ["testers": .strings([id])])
            let link = try api.call("POST", "/v1/testers/\(id)/links", [:])
            guard let url = link["url"]?.stringValue, let path = url.range(of: "/console/link/").map({ String(url[$0.lowerBound...]) }) else {
                throw BenchError("no link url")
            }
            cookies.append(try openSession(settings.baseURL + path))
        }
        _ = try api.call("POST", "/v1/fixes/\(fixKey)/start", [:])
        let staffCookie = try signIn(settings.baseURL, token: settings.adminToken)

        let questionPath = "/console/testing/\(fixKey)/feedback/verdict"
        let weights: [(String, String, String)] = [
            ("tester start page", "/console/", cookies[0]),
            ("what to try", "/console/testing/\(fixKey)", cookies[0]),
            ("feedback question", questionPath, cookies[0]),
            ("staff start page", "/console/", staffCookie),
            ("fixes", "/console/fixes", staffCookie),
            ("fix page", "/console/fixes/\(fixKey)", staffCookie),
            ("decision", "/console/fixes/\(fixKey)/decision", staffCookie),
            ("stylesheet", "", ""),
        ]
        let client = HTTPClient(timeoutSeconds: 30)
        var heaviest = 0
        for (label, path, cookie) in weights {
            let address = path.isEmpty ? try stylesheetAddress(settings.baseURL, cookie: staffCookie) : settings.baseURL + path
            let answer = try client.send(method: "GET", url: address, headers: cookie.isEmpty ? [] : [("Cookie", cookie)])
            guard answer.status == 200 else { throw BenchError("\(label) answered \(answer.status)") }
            Report.line("Console page bytes, \(label)", String(answer.body.count))
            if !path.isEmpty { heaviest = max(heaviest, answer.body.count) }
        }
        Report.line("Console heaviest page KB", Report.fixed(Double(heaviest) / 1024, 1))

        let url = settings.baseURL + questionPath
        let languages = cookies.indices.map { $0 % 2 == 0 ? "en" : "ja" }
        let speaking = zip(cookies, languages).map { cookie, language in cookie + "; vouch_lang=" + language }
        for (label, rate) in [("paced", settings.ratePerSession), ("back to back", 0.0)] {
            let perSession = try load(url: url, cookies: speaking, languages: languages, seconds: settings.seconds, ratePerSession: rate)
            let times = perSession.flatMap { $0 }.sorted()
            Report.line("Console feedback page, \(label), sessions", String(settings.sessions))
            Report.line("Console feedback page, \(label), pages per second", Report.fixed(Double(times.count) / settings.seconds, 0))
            Report.line("Console feedback page, \(label), ms p50", Report.fixed(Report.percentile(times, 0.50), 2))
            Report.line("Console feedback page, \(label), ms p99", Report.fixed(Report.percentile(times, 0.99), 2))
            Report.line("Console feedback page, \(label), ms max", Report.fixed(times.last ?? .nan, 2))
            var p99: [String: Double] = [:]
            for (language, name) in [("en", "English"), ("ja", "Japanese")] {
                let chosen = zip(perSession, languages).filter { $0.1 == language }.flatMap(\.0).sorted()
                p99[language] = Report.percentile(chosen, 0.99)
                Report.line("Console feedback page, \(label), \(name), ms p50", Report.fixed(Report.percentile(chosen, 0.50), 2))
                Report.line("Console feedback page, \(label), \(name), ms p99", Report.fixed(p99[language] ?? .nan, 2))
            }
            Report.line("Console feedback page, \(label), Japanese p99 over English p99", Report.fixed((p99["ja"] ?? .nan) / (p99["en"] ?? .nan), 2))
        }
    }

    /// Each session on its own thread and connection; returns each session's answer times. Each answer must be the
    /// page in its session's language.
    private static func load(url: String, cookies: [String], languages: [String], seconds: Double, ratePerSession: Double) throws -> [[Double]] {
        let results = Mutex<[[Double]]>(Array(repeating: [], count: cookies.count))
        let failure = Mutex<String?>(nil)
        let group = DispatchGroup()
        let end = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        let interval = ratePerSession > 0 ? 1 / ratePerSession : 0
        for (index, cookie) in cookies.enumerated() {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                let client = HTTPClient(timeoutSeconds: 30)
                var times: [Double] = []
                // Sessions start spread over one interval, as people do, not all in the same millisecond.
                if interval > 0 { Thread.sleep(forTimeInterval: interval * Double(index) / Double(cookies.count)) }
                var next = DispatchTime.now().uptimeNanoseconds
                while DispatchTime.now().uptimeNanoseconds < end {
                    let started = DispatchTime.now().uptimeNanoseconds
                    do {
                        let answer = try client.send(method: "GET", url: url, headers: [("Cookie", cookie)])
                        guard answer.status == 200, answer.text.contains("<html lang=\"\(languages[index])\""), answer.text.contains("<h1") else {
                            failure.withLock { $0 = "the feedback page answered \(answer.status)" }
                            return
                        }
                    } catch {
                        failure.withLock { $0 = "\(error)" }
                        return
                    }
                    times.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
                    if interval > 0 {
                        next += UInt64(interval * 1e9)
                        let now = DispatchTime.now().uptimeNanoseconds
                        if next > now { Thread.sleep(forTimeInterval: Double(next - now) / 1e9) }
                    }
                }
                results.withLock { $0[index] = times }
            }
        }
        group.wait()
        if let message = failure.withLock({ $0 }) { throw BenchError(message) }
        return results.withLock { $0 }
    }

    /// Opens a personal link as her browser does: the page, then its "Continue as" button. Returns the session
    /// cookie as a `Cookie` header value.
    private static func openSession(_ url: String) throws -> String {
        try submitForm(url, fields: "", what: "the personal link")
    }

    static func signIn(_ baseURL: String, token: String) throws -> String {
        try submitForm(baseURL + "/console/sign-in", fields: "&next=&token=\(token)", what: "sign-in")
    }

    /// Fetches the page at `url`, posts its form back with its form token and cookie plus `fields`, and returns the
    /// session cookie the answer sets.
    private static func submitForm(_ url: String, fields: String, what: String) throws -> String {
        let client = HTTPClient(timeoutSeconds: 30)
        let form = try client.send(method: "GET", url: url)
        guard let formCookie = form.headers["set-cookie"]?.split(separator: ";").first.map(String.init),
              let range = form.text.range(of: "name=\"csrf\" value=\"") else { throw BenchError("\(what) page has no form (it answered \(form.status))") }
        let csrf = form.text[range.upperBound...].prefix { $0 != "\"" }
        let answer = try client.send(method: "POST", url: url, headers: [("Cookie", formCookie), ("Content-Type", "application/x-www-form-urlencoded")],
                                     body: Array("csrf=\(csrf)\(fields)".utf8))
        guard answer.status == 303, let cookie = sessionCookie(answer.headers["set-cookie"]) else {
            throw BenchError("\(what) answered \(answer.status) without a session")
        }
        return cookie
    }

    private static func sessionCookie(_ header: String?) -> String? {
        header?.split(separator: "\n").first { $0.hasPrefix("vouch_console=") && !$0.contains("Max-Age=0") }
            .flatMap { $0.split(separator: ";").first.map(String.init) }
    }

    private static func stylesheetAddress(_ baseURL: String, cookie: String) throws -> String {
        let page = try HTTPClient(timeoutSeconds: 30).send(method: "GET", url: baseURL + "/console/sign-in")
        guard let range = page.text.range(of: "rel=\"stylesheet\" href=\"") else { throw BenchError("no stylesheet link") }
        return baseURL + page.text[range.upperBound...].prefix { $0 != "\"" }
    }
}
