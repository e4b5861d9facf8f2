import Foundation
import Testing
import VouchJSON
@testable import VouchServer
import VouchTestSupport
import VouchWebhooks

/// What the OpenAPI document refuses, the server refuses. The test walks every string `pattern` and `enum` of the
/// request bodies and query parameters in `openapi/vouch.openapi.json`, takes a valid value for it, and sends that
/// value with a space or a tab before or after it (and a few other near misses) wherever the document's own pattern
/// refuses the variant: each must be a 4xx that names the field, never stored. Found by an attack:
/// `min_soak: " 5s"` was accepted though the pattern is `^(0|[0-9]+[smhd])$`.
@Suite(.serialized) struct OpenAPIStrictnessTests {
    static let key = "tv-channel-selector-labels"

    /// A request known to be valid, into which one field's value is swapped.
    struct Base {
        var operation: String
        var path: String
        var body: JSONObject
    }

    /// One valid body per operation (two for tokens, whose `tester` only a tester token has). Every property the
    /// document constrains must appear in one, or the test fails and says which to add.
    static func bases(tester: String, webhook: String) -> [Base] {
        func object(_ text: String) -> JSONObject { (try? JSONParser.parse(Array(text.utf8)).objectValue) ?? [:] }
        return [
            Base(operation: "POST /v1/fixes", path: "/v1/fixes", body: object(#"""
                {"key":"strict-fix","title":"Labels","description":"Adds labels","ui_area":"Channel list","platforms":["ios"],"wcag":["4.1.2"],
                 "expected_announcement":"NHK, button","language":"en"}
                """#)),
            Base(operation: "PATCH /v1/fixes/{key}", path: "/v1/fixes/patch-fix", body: object(#"""
                {"key":"patch-fix","title":"Labels","description":"Adds labels","ui_area":"Channel list","platforms":["web"],"wcag":["1.1.1"],
                 "expected_announcement":"NHK, button","language":"ja"}
                """#)),
            Base(operation: "PUT /v1/fixes/{key}/criteria", path: "/v1/fixes/\(key)/criteria",
                 body: object(#"{"min_soak":"5s","required_assistive_tech":["ios:voiceover"]}"#)),
            Base(operation: "PUT /v1/fixes/{key}/rollout", path: "/v1/fixes/\(key)/rollout", body: object(#"{"phased":true,"steps":[10,100],"interval":"1h"}"#)),
            Base(operation: "POST /v1/fixes/{key}/targets", path: "/v1/fixes/\(key)/targets", body: object(#"{"add":["user-1"],"remove":["user-2"]}"#)),
            Base(operation: "POST /v1/fixes/{key}/approvals", path: "/v1/fixes/\(key)/approvals", body: object(#"{"decision":"approve"}"#)),
            Base(operation: "POST /v1/tokens", path: "/v1/tokens", body: object(#"{"name":"strict-app","role":"sdk"}"#)),
            Base(operation: "POST /v1/tokens", path: "/v1/tokens", body: object(#"{"name":"strict-maintainer","role":"maintainer","email":"mia@example.org"}"#)),
            Base(operation: "POST /v1/tokens", path: "/v1/tokens", body: object(#"{"name":"phone","role":"tester","tester":"\#(tester)"}"#)),
            Base(operation: "POST /v1/testers", path: "/v1/testers", body: object(#"""
                {"name":"Ana","contact":"ana@example.com","email":"ana@example.com","assistive_tech":["voiceover:ios:18.2"],"targeting_keys":["user-9"],"consent":"v1"}
                """#)),
            Base(operation: "PATCH /v1/testers/{id}", path: "/v1/testers/\(tester)", body: object(#"""
                {"name":"Ana","contact":"ana@example.com","email":"ana@example.com","assistive_tech":["voiceover:ios:18.2"],"targeting_keys":["user-9"],"consent":"v2"}
                """#)),
            Base(operation: "POST /v1/testers/{id}/links", path: "/v1/testers/\(tester)/links", body: object(#"{"valid_for":"14d"}"#)),
            Base(operation: "POST /v1/invitations", path: "/v1/invitations", body: object(#"""
                {"fixes":["\#(key)"],"targeting_keys":["user-9"],"language":"ja","expires_in":"14d","uses":1,"name_hint":"Aiko"}
                """#)),
            Base(operation: "POST /v1/panels", path: "/v1/panels", body: object(#"{"name":"VoiceOver on iOS","description":"iPhone users\nevery day"}"#)),
            Base(operation: "POST /v1/fixes/{key}/feedback", path: "/v1/fixes/\(key)/feedback",
                 body: object(FeedbackRoutesTests.passing(tester)).merging(["device": "iPhone 15", "channel": "http"])),
            Base(operation: "POST /v1/fixes/{key}/feedback", path: "/v1/fixes/\(key)/feedback",
                 body: object(FeedbackRoutesTests.passing(tester)).merging(["platform": "web", "assistive_tech": "nvda", "browser": "firefox",
                                                                             "browser_version": "128"])),
            Base(operation: "POST /v1/webhooks", path: "/v1/webhooks", body: object(#"""
                {"url":"http://127.0.0.1:9/repos/example/app/dispatches","events":["fix.released"],"format":"github-dispatch","token_file":"deploy"}
                """#)),
            Base(operation: "PATCH /v1/webhooks/{id}", path: "/v1/webhooks/\(webhook)", body: object(#"""
                {"url":"http://127.0.0.1:9/repos/example/other/dispatches","events":["fix.created"],"format":"github-dispatch","token_file":"deploy"}
                """#)),
        ]
    }

    /// A constrained string: the pattern and the enum that a value must satisfy.
    struct Rule {
        var pattern: NSRegularExpression?
        var values: [String]?

        func accepts(_ text: String) -> Bool {
            if let values, !values.contains(text) { return false }
            if let pattern, pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil { return false }
            return true
        }
    }

    /// The string rules a schema puts on a value, through `$ref`, `anyOf` and `oneOf`; with `items` for array elements.
    static func rules(_ schema: JSONValue, in document: JSONValue, items: Bool) throws -> [Rule] {
        var schema = schema
        while let reference = schema["$ref"]?.stringValue {
            schema = try #require(document["components"]?["schemas"]?[String(reference.split(separator: "/").last!)])
        }
        var found: [Rule] = []
        if !items, schema["pattern"] != nil || schema["enum"] != nil {
            found.append(Rule(pattern: try schema["pattern"]?.stringValue.map { try NSRegularExpression(pattern: $0) },
                              values: schema["enum"]?.arrayValue?.compactMap(\.stringValue)))
        }
        for alternatives in ["anyOf", "oneOf"] {
            for alternative in schema[alternatives]?.arrayValue ?? [] { found += try rules(alternative, in: document, items: items) }
        }
        if items, let element = schema["items"] { found += try rules(element, in: document, items: false) }
        return found
    }

    /// Near misses of a valid value: spaces and tabs around it, a line break after it, a no-break space before it.
    static func variants(of value: String) -> [String] {
        [" " + value, value + " ", "\t" + value, value + "\t", value + "\n", value + "\r", "\u{A0}" + value, "\u{FEFF}" + value]
    }

    @Test func everyValueTheDocumentRefusesInABodyTheServerRefuses() throws {
        // The webhook bases are github-dispatch ones, so that token_file is probed too: their token file is here.
        let tokens = try TemporaryDirectory("vouch-strict-tokens")
        try "ghp_strict\n".write(toFile: tokens.file("deploy"), atomically: true, encoding: .utf8)
        var settings = InProcessServer.testSettings()
        settings.delivery.shaping = WebhookRequest.Shaping(tokenDirectory: tokens.path)
        let server = try InProcessServer(settings: settings)
        try server.createChannelSelectorFix()
        try server.call("POST", "/v1/fixes", json: #"{"key":"patch-fix","title":"T","ui_area":"Area","platforms":["ios"]}"#)
        try server.call("POST", "/v1/fixes/\(Self.key)/start")
        let tester = try server.createTester()
        try server.call("POST", "/v1/fixes/\(Self.key)/enrollments", json: #"{"testers":["\#(tester)"]}"#)
        let webhook = try #require(try server.call("POST", "/v1/webhooks", json: #"{"url":"http://127.0.0.1:9/first"}"#).json["id"]?.stringValue)
        let document = try OpenAPIDocumentTests.document()
        let bases = Self.bases(tester: tester, webhook: webhook)

        var checked = 0
        var refusals: [String] = []
        for (template, item) in try #require(document["paths"]?.objectValue).members {
            for (method, operation) in try #require(item.objectValue).members {
                guard let schema = operation["requestBody"]?["content"]?["application/json"]?["schema"] else { continue }
                let name = method.uppercased() + " " + template
                // A body may also be a list of records (feedback); its object form holds the properties.
                var object = schema
                if let first = schema["oneOf"]?.arrayValue?.first { object = first }
                while let reference = object["$ref"]?.stringValue {
                    object = try #require(document["components"]?["schemas"]?[String(reference.split(separator: "/").last!)])
                }
                for (property, propertySchema) in object["properties"]?.objectValue?.members ?? [] {
                    let whole = try Self.rules(propertySchema, in: document, items: false)
                    let elements = try Self.rules(propertySchema, in: document, items: true)
                    guard !whole.isEmpty || !elements.isEmpty else { continue }
                    let holders = bases.filter { $0.operation == name && $0.body[property] != nil }
                    try #require(!holders.isEmpty, "add \(property) to a base body of \(name)")
                    for base in holders {
                        let original = try #require(base.body[property])
                        let probes: [(value: JSONValue, text: String, rules: [Rule])]
                        if let text = original.stringValue, !whole.isEmpty {
                            probes = Self.variants(of: text).map { (.string($0), $0, whole) }
                        } else if let list = original.arrayValue, let text = list.first?.stringValue, !elements.isEmpty {
                            probes = Self.variants(of: text).map { (.array([.string($0)] + list.dropFirst()), $0, elements) }
                        } else {
                            continue
                        }
                        for probe in probes where !probe.rules.contains(where: { $0.accepts(probe.text) }) {
                            var body = base.body
                            body[property] = probe.value
                            let answer = try server.call(method.uppercased(), base.path, json: JSONWriter.string(.object(body)))
                            checked += 1
                            let named = answer.errorFields.contains { $0 == property || $0.hasPrefix(property + "[") || $0.hasPrefix(property + ".") }
                            if !((answer.status == 422 || answer.status == 400) && named) {
                                refusals.append("\(name) \(property)=\(probe.text.debugDescription): \(answer.status) \(answer.errorFields)")
                            }
                        }
                        // The base itself is valid: whatever else it meets (a conflict, the author's own fix), not a 422.
                        let answer = try server.call(method.uppercased(), base.path, json: JSONWriter.string(.object(base.body)))
                        #expect(answer.status != 422 && answer.status != 400, "\(name) base: \(answer.status) \(answer.text)")
                    }
                }
            }
        }
        #expect(refusals.isEmpty, "accepted though the document refuses them:\n\(refusals.joined(separator: "\n"))")
        #expect(checked > 300, "only \(checked) variants were sent")
        Figures.report("OpenAPI strictness", ["body values the document refuses": checked, "accepted": refusals.count])
    }

    /// The document's conditional rule: a rejection's comment matches `\S`, so one of only spaces (a byte order mark
    /// and a no-break space among them, as ECMAScript's `\s` counts them) is no comment; `maxLength` counts code points.
    @Test(arguments: [" ", "\u{FEFF}", "\u{A0}\u{3000}", "\n\t", String(repeating: "e\u{301}", count: 1_001)])
    func aRejectionsCommentIsCheckedAsTheDocumentChecksIt(comment: String) throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        try server.call("POST", "/v1/fixes/\(Self.key)/start")
        let body = JSONWriter.string(.object(["decision": .string("reject"), "comment": .string(comment)]))
        let answer = try server.call("POST", "/v1/fixes/\(Self.key)/approvals", json: body)
        #expect(answer.status == 422 && answer.errorFields == ["comment"], "\(answer.status) \(answer.text)")
    }

    /// The same for query parameters with a pattern or an enum (`state`, `status`, `cursor`).
    @Test func everyQueryValueTheDocumentRefusesTheServerRefuses() throws {
        let server = try InProcessServer()
        try server.createChannelSelectorFix()
        let webhook = try #require(try server.call("POST", "/v1/webhooks", json: #"{"url":"http://127.0.0.1:9/first"}"#).json["id"]?.stringValue)
        let document = try OpenAPIDocumentTests.document()
        let examples = ["state": "draft", "status": "dead", "cursor": "c29tZS1rZXk", "released_from": "2026-12-01", "released_to": "2026-12-31",
                        "fixes": Self.key, "product_name": "Example TV", "product_version": "5.4.1", "format": "markdown",
                        "action": "fix.criteria"]
        var checked = 0
        var refusals: [String] = []
        for (template, item) in try #require(document["paths"]?.objectValue).members {
            guard let operation = item["get"] else { continue }
            for parameter in operation["parameters"]?.arrayValue ?? [] {
                var parameter = parameter
                if let reference = parameter["$ref"]?.stringValue {
                    parameter = try #require(document["components"]?["parameters"]?[String(reference.split(separator: "/").last!)])
                }
                guard parameter["in"]?.stringValue == "query", let name = parameter["name"]?.stringValue, let schema = parameter["schema"] else { continue }
                let rules = try Self.rules(schema, in: document, items: false)
                guard !rules.isEmpty else { continue }
                let example = try #require(examples[name], "add an example for the query parameter \(name)")
                let path = template.replacingOccurrences(of: "{key}", with: Self.key).replacingOccurrences(of: "{id}", with: webhook)
                for variant in Self.variants(of: example) + [""] where !rules.contains(where: { $0.accepts(variant) }) {
                    let encoded = variant.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? variant
                    let answer = try server.call("GET", "\(path)?\(name)=\(encoded)")
                    checked += 1
                    if !(answer.status == 422 && answer.errorFields.contains(name)) {
                        refusals.append("GET \(template) \(name)=\(variant.debugDescription): \(answer.status) \(answer.errorFields)")
                    }
                }
            }
        }
        #expect(refusals.isEmpty, "accepted though the document refuses them:\n\(refusals.joined(separator: "\n"))")
        #expect(checked > 40, "only \(checked) variants were sent")
        Figures.report("OpenAPI strictness, query", ["query values the document refuses": checked, "accepted": refusals.count])
    }
}

private extension JSONObject {
    /// The object with `strings` set as string members.
    func merging(_ strings: [String: String]) -> JSONObject {
        var object = self
        for (name, value) in strings { object[name] = .string(value) }
        return object
    }
}
