import Foundation
import VouchDaemon
import VouchJSON
import VouchServer

extension InProcessServer {
    /// A browser signed in to the console with a new token of `role` (the admin's own token when `role` is admin).
    func signedInBrowser(role: String = "admin", name: String? = nil) throws -> ConsoleBrowser {
        let token = role == "admin" && name == nil ? adminToken : try self.token(role: role, name: name)
        let browser = ConsoleBrowser(port: port)
        let page = try browser.get("/console/sign-in")
        let signedIn = try browser.post("/console/sign-in", [("csrf", page.csrf ?? ""), ("token", token), ("next", "")])
        guard signedIn.status == 303 else { throw DaemonError("sign-in answered \(signedIn.status): \(signedIn.html)") }
        return browser
    }

    /// A tester with consent, keys `keys`, enrolled in nothing; returns the id.
    func createTester(name: String = "Aiko Tanaka", keys: [String] = ["user-7"], technology: String = "voiceover:ios:18.2") throws -> String {
        let keyList = keys.map { "\"\($0)\"" }.joined(separator: ",")
        let answer = try call("POST", "/v1/testers", json: #"{"name":"\#(name)","assistive_tech":["\#(technology)"],"targeting_keys":[\#(keyList)],"consent":"v1"}"#)
        guard answer.status == 201, let id = answer.json["id"]?.stringValue else { throw DaemonError("tester creation failed: \(answer.status) \(answer.text)") }
        return id
    }

    /// A personal link for the tester; returns the path of its address (`/console/link/…`).
    func personalLink(for testerID: String, validFor: String? = nil) throws -> (id: String, path: String) {
        let answer = try call("POST", "/v1/testers/\(testerID)/links", json: validFor.map { #"{"valid_for":"\#($0)"}"# } ?? "{}")
        guard answer.status == 201, let url = answer.json["url"]?.stringValue, let id = answer.json["id"]?.stringValue,
              let range = url.range(of: "/console/link/") else { throw DaemonError("link creation failed: \(answer.status) \(answer.text)") }
        return (id, String(url[range.lowerBound...]))
    }

    /// A browser signed in through the tester's personal link.
    func testerBrowser(_ testerID: String) throws -> ConsoleBrowser {
        let browser = ConsoleBrowser(port: port)
        let opened = try browser.openLink(try personalLink(for: testerID).path)
        guard opened.status == 303 else { throw DaemonError("the link answered \(opened.status)") }
        return browser
    }
}
