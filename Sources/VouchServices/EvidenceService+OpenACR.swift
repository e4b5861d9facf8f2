import Foundation
import VouchCodec
import VouchDomain
import VouchJSON
import VouchStore

extension EvidenceService {
    /// The OpenACR catalog the reports follow: VPAT 2.5 International edition (WCAG 2.2, Section 508, EN 301 549).
    public static let catalog = "2.5-edition-wcag-2.2-508-eu-en"

    /// Which fixes a report covers, and the product it speaks for.
    public struct ReportScope: Sendable {
        /// Fixes named by key, or else every fix released in the period.
        public var fixes: [String]
        public var releasedFrom: Date?
        public var releasedTo: Date?
        public var productName: String
        public var productVersion: String?

        public init(fixes: [String], releasedFrom: Date? = nil, releasedTo: Date? = nil, productName: String, productVersion: String? = nil) {
            self.fixes = fixes
            self.releasedFrom = releasedFrom
            self.releasedTo = releasedTo
            self.productName = productName
            self.productVersion = productVersion
        }
    }

    /// An OpenACR report (schema openacr-0.1.0) of the fixes' evidence, as a JSON value for `YAMLWriter`: each WCAG 2.2
    /// criterion per component at the level its latest verdicts give, in words that say who backed it.
    public func openACR(_ scope: ReportScope, for principal: Principal) throws -> JSONValue {
        try AccessDenied.unless(principal, may: .readAll)
        guard programmeOperator.isConfigured else {
            throw StoreConflict("a report names its author: set operator.name and operator.contact in vouchd's configuration")
        }
        let fixes = try self.fixes(in: scope)
        let evidence = try fixes.map { ConformanceRollup.FixEvidence(fix: $0.fix, latest: try store.latestFeedback(of: $0.fix.key.rawValue, revision: $0.fix.revision)) }
        let rows = ConformanceRollup.rows(evidence)
        var chapters: JSONObject = [:]
        for (chapter, level) in [("success_criteria_level_a", "A"), ("success_criteria_level_aa", "AA"), ("success_criteria_level_aaa", "AAA")] {
            var criteria: [JSONValue] = []
            var current: (number: String, components: [JSONValue])?
            for row in rows where row.criterion.level == level {
                let component: JSONValue = .object(["name": .string(row.component),
                                                    "adherence": .object(["level": .string(row.level.rawValue), "notes": .string(row.notes)])])
                if current?.number == row.criterion.number { current?.components.append(component); continue }
                if let done = current { criteria.append(.object(["num": .string(done.number), "components": .array(done.components)])) }
                current = (row.criterion.number, [component])
            }
            if let done = current { criteria.append(.object(["num": .string(done.number), "components": .array(done.components)])) }
            chapters[chapter] = .object(["criteria": .array(criteria)])
        }
        let components = Set(rows.map(\.component))
        chapters["en_301_549_web"] = components.contains("web")
            ? .object(["notes": .string("Clauses 9.1 to 9.4 of EN 301 549 apply the WCAG 2.2 Level A and AA success criteria to web content: each clause has the level of its WCAG criterion, component web, in the tables above.")])
            : .object(["disabled": .bool(true), "notes": .string("No fix in this report ships on the web.")])
        chapters["en_301_549_software"] = components.contains("software")
            ? .object(["notes": .string("Clauses 11.1 to 11.4 of EN 301 549 apply the WCAG 2.2 success criteria to software: each clause has the level of its WCAG criterion, component software, in the tables above. Clauses 11.5 to 11.8 were not evaluated.")])
            : .object(["disabled": .bool(true), "notes": .string("No fix in this report ships as an app.")])
        var product: JSONObject = ["name": .string(scope.productName)]
        if let version = scope.productVersion { product["version"] = .string(version) }
        product["description"] = .string("Accessibility fixes verified with Vouch: " + fixes.map { "\($0.fix.key.rawValue) (\($0.fix.title))" }.joined(separator: ", ") + ".")
        return .object([
            "title": .string("\(scope.productName) Accessibility Conformance Report"),
            "product": .object(product),
            "author": .object(["name": .string(programmeOperator.name), "company_name": .string(programmeOperator.name),
                               "email": .string(programmeOperator.contact)]),
            "report_date": .string(String(Timestamp.string(clock()).prefix(10))),
            "notes": .string(EvidenceService.reportNotes(fixes)),
            "evaluation_methods_used": .string(EvidenceService.methods(evidence)),
            "catalog": .string(EvidenceService.catalog),
            "chapters": .object(chapters),
        ])
    }

    /// The fixes the scope names, each with when it was released (nil when it is not released).
    func fixes(in scope: ReportScope) throws -> [(fix: Fix, releasedAt: Date?)] {
        if !scope.fixes.isEmpty {
            var errors: [FieldError] = []
            var found: [(fix: Fix, releasedAt: Date?)] = []
            for (index, key) in scope.fixes.enumerated() {
                guard let fix = try store.fix(key) else {
                    errors.append(FieldError(field: "fixes[\(index)]", message: "no fix has the key '\(key)'"))
                    continue
                }
                found.append((fix, try releasedAt(fix)))
            }
            if !errors.isEmpty { throw ValidationFailure(errors) }
            return found
        }
        var released: [(fix: Fix, releasedAt: Date?)] = []
        var after: String?
        while true {
            let page = try store.fixes(state: .released, after: after, limit: EvidenceService.pageSize)
            for fix in page {
                guard let time = try releasedAt(fix) else { continue }
                if let from = scope.releasedFrom, time < from { continue }
                if let to = scope.releasedTo, time >= to { continue }
                released.append((fix, time))
            }
            guard page.count == EvidenceService.pageSize, let last = page.last else { return released }
            after = last.key.rawValue
        }
    }

    /// When the fix last reached everyone: its last promotion to everyone or the last step of its phased rollout.
    func releasedAt(_ fix: Fix) throws -> Date? {
        guard fix.state == .released else { return nil }
        var last: Date?
        var after: Int64?
        while true {
            let page = try store.auditEvents(fix: fix.key.rawValue, after: after, limit: EvidenceService.pageSize)
            for event in page where event.action == .fixPromotionSucceeded || event.action == .fixRolloutCompleted { last = event.at }
            guard page.count == EvidenceService.pageSize, let next = page.last else { return last }
            after = next.id
        }
    }

    static func reportNotes(_ fixes: [(fix: Fix, releasedAt: Date?)]) -> String {
        let listed = fixes.map { item in
            "\(item.fix.key.rawValue) \"\(item.fix.title)\" (revision \(item.fix.revision)"
                + (item.releasedAt.map { ", released on \(Timestamp.string($0).prefix(10))" } ?? ", \(item.fix.state.rawValue.replacingOccurrences(of: "_", with: " "))") + ")"
        }
        return "This report covers \(fixes.count) \(fixes.count == 1 ? "fix" : "fixes")" + (listed.isEmpty ? "." : ": " + listed.joined(separator: "; ") + ".")
            + " Each level comes from the latest verdict of each tester on the fix's current revision: supports when every verdict passed,"
            + " partially supports when passes stand beside failures or testers who could not tell, does not support when none passed."
            + " A criterion no tester verified is not evaluated: support is never claimed without evidence. Testers are not named."
    }

    /// The method and the matrix of technologies and platforms behind the report, in words.
    static func methods(_ evidence: [ConformanceRollup.FixEvidence]) -> String {
        var groups: [(setup: String, count: Int)] = []
        var groupOf: [String: Int] = [:]
        for item in evidence {
            for record in item.latest {
                let setup = ConformanceRollup.setup(record)
                if let index = groupOf[setup] { groups[index].count += 1 } else { groupOf[setup] = groups.count; groups.append((setup, 1)) }
            }
        }
        let matrix = groups.isEmpty ? "No tester has given a verdict yet."
            : "Verdicts by technology and platform: " + groups.map { "\($0.setup), \($0.count) \($0.count == 1 ? "verdict" : "verdicts")" }.joined(separator: "; ") + "."
        return "Manual verification by assistive-technology users: each tester used the fix with her own assistive technology on her own device"
            + " and recorded a verdict (passed, failed, or could not tell), what the assistive technology announced, and the worst remaining problem. " + matrix
    }
}
