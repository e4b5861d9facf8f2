import Foundation
import VouchCodec
import VouchDomain
import VouchJSON

/// A fix's feedback as W3C EARL 1.0 assertions in JSON-LD (docs/evidence.md, "EARL"): one `earl:Assertion` per
/// feedback record and WCAG criterion of the fix. The `@context` is written out in full, so a consumer expands the
/// document without fetching anything; what EARL has no term for (severity, task outcome, workaround, platform) is
/// in the `vouch:` vocabulary that context defines.
public enum EARLDocument {
    /// Vouch's own terms; a URN, so the vocabulary names no web address anyone could be expected to serve.
    public static let vocabulary = "urn:vouch:ns#"
    public static let wcag22 = "https://www.w3.org/TR/WCAG22/#"

    public static let context: JSONValue = .object([
        "earl": .string("http://www.w3.org/ns/earl#"),
        "dct": .string("http://purl.org/dc/terms/"),
        "foaf": .string("http://xmlns.com/foaf/0.1/"),
        "doap": .string("http://usefulinc.com/ns/doap#"),
        "xsd": .string("http://www.w3.org/2001/XMLSchema#"),
        "WCAG22": .string(wcag22),
        "vouch": .string(vocabulary),
        "dct:date": .object(["@type": .string("xsd:dateTime")]),
        "fix": .object(["@id": .string("vouch:fix")]),
        "revision": .object(["@id": .string("vouch:revision"), "@type": .string("xsd:integer")]),
        "platform": .object(["@id": .string("vouch:platform")]),
        "osVersion": .object(["@id": .string("vouch:osVersion")]),
        "appBuild": .object(["@id": .string("vouch:appBuild")]),
        "assistiveTechnology": .object(["@id": .string("vouch:assistiveTechnology")]),
        "browser": .object(["@id": .string("vouch:browser")]),
        "severity": .object(["@id": .string("vouch:severity")]),
        "taskOutcome": .object(["@id": .string("vouch:taskOutcome")]),
        "workaround": .object(["@id": .string("vouch:workaround")]),
        "regression": .object(["@id": .string("vouch:regression")]),
    ])

    /// The document for `feedback` (records of `fix` on one revision, in the order they arrived).
    public static func make(fix: Fix, revision: Int, feedback: [Feedback]) -> JSONValue {
        let criteria = criteria(of: fix)
        var graph: [JSONValue] = []
        for record in feedback {
            for criterion in criteria { graph.append(assertion(record, criterion: criterion, fix: fix, revision: revision)) }
        }
        return .object(["@context": context, "@graph": .array(graph)])
    }

    /// One tester's records on any fixes, each on its own revision, as her data export holds them: only hers, by her
    /// pseudonym. A record whose fix is gone has no criteria to assert and is left out (it stays in her feedback).
    public static func make(feedback: [Feedback], fixes: [String: Fix]) -> JSONValue {
        var graph: [JSONValue] = []
        for record in feedback {
            guard let fix = fixes[record.fixKey] else { continue }
            for criterion in criteria(of: fix) { graph.append(assertion(record, criterion: criterion, fix: fix, revision: record.revision)) }
        }
        return .object(["@context": context, "@graph": .array(graph)])
    }

    static func criteria(of fix: Fix) -> [WCAGCatalog.Criterion] {
        fix.wcag.compactMap { number in WCAGCatalog.criteria.first { $0.number == number } }
    }

    /// The W3C anchor of a criterion in WCAG 2.2 ("Name, Role, Value" → `name-role-value`).
    public static func anchor(_ criterion: WCAGCatalog.Criterion) -> String {
        var slug = ""
        for character in criterion.name.lowercased() {
            if character.isLetter || character.isNumber { slug.append(character) } else if !slug.isEmpty && slug.last != "-" { slug.append("-") }
        }
        while slug.last == "-" { slug.removeLast() }
        return slug
    }

    static func assertion(_ record: Feedback, criterion: WCAGCatalog.Criterion, fix: Fix, revision: Int) -> JSONValue {
        .object([
            "@id": .string("urn:vouch:feedback:\(record.id):wcag:\(criterion.number)"),
            "@type": .string("earl:Assertion"),
            "earl:assertedBy": assertor(record),
            "earl:subject": subject(record, fix: fix, revision: revision),
            "earl:test": .object([
                "@id": .string("WCAG22:\(anchor(criterion))"), "@type": .string("earl:TestRequirement"),
                "dct:identifier": .string(criterion.number), "dct:title": .string(criterion.name),
            ]),
            "earl:mode": .object(["@id": .string("earl:manual")]),
            "earl:result": result(record),
        ])
    }

    /// The tester by pseudonym only, with the software she used; a withdrawn tester is "withdrawn", and what her
    /// withdrawal erased (technology version, browser version) is simply absent.
    static func assertor(_ record: Feedback) -> JSONValue {
        var person: JSONObject = [
            "@type": .strings(["earl:Assertor", "foaf:Person"]),
            "foaf:nick": .string(record.testerID ?? "withdrawn"),
            "assistiveTechnology": software(record.assistiveTech.displayName, version: record.atVersion),
        ]
        if let browser = record.browser { person["browser"] = software(browser.displayName, version: record.browserVersion) }
        return .object(person)
    }

    static func software(_ name: String, version: String?) -> JSONValue {
        var node: JSONObject = ["@type": .string("earl:Software"), "doap:name": .string(name)]
        if let version, !version.isEmpty { node["doap:revision"] = .string(version) }
        return .object(node)
    }

    /// The app as the tester ran it: the fix at a revision, on a platform, OS version and build.
    static func subject(_ record: Feedback, fix: Fix, revision: Int) -> JSONValue {
        let key = fix.key.rawValue
        var id = "urn:vouch:fix:\(key):revision:\(revision):\(record.platform.rawValue)"
        var title = "\(fix.title) (fix \(key), revision \(revision)) on \(record.platform.displayName)"
        if !record.osVersion.isEmpty { title += " \(record.osVersion)" }
        if !record.appBuild.isEmpty {
            id += ":build:" + (record.appBuild.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            title += ", build \(record.appBuild)"
        }
        var node: JSONObject = ["@id": .string(id), "@type": .string("earl:TestSubject"), "dct:title": .string(title), "fix": .string(key),
                                "revision": .int(revision), "platform": .string(record.platform.rawValue)]
        if !record.osVersion.isEmpty { node["osVersion"] = .string(record.osVersion) }
        if !record.appBuild.isEmpty { node["appBuild"] = .string(record.appBuild) }
        return .object(node)
    }

    static func result(_ record: Feedback) -> JSONValue {
        var node: JSONObject = [
            "@type": .string("earl:TestResult"),
            "earl:outcome": .object(["@id": .string(outcome(record.verdict))]),
            "dct:date": .string(Timestamp.string(record.recordedAt)),
        ]
        if let heard = record.heard, !heard.isEmpty { node["dct:description"] = .string("Heard: \(heard)") }
        node["severity"] = .string(record.severity.rawValue)
        node["taskOutcome"] = .string(record.taskOutcome.rawValue)
        node["workaround"] = .bool(record.taskOutcome == .completedWithWorkaround)
        node["regression"] = .bool(record.regression)
        return .object(node)
    }

    public static func outcome(_ verdict: Verdict) -> String {
        switch verdict {
        case .passed: "earl:passed"
        case .failed: "earl:failed"
        case .cantTell: "earl:cantTell"
        }
    }
}
