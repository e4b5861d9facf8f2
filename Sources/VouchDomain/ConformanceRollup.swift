import Foundation

/// A release's evidence rolled up per WCAG 2.2 criterion and component into VPAT conformance levels, for an OpenACR
/// report (docs/evidence.md, "OpenACR"). The levels never claim more than the evidence shows: `supports` only when every
/// latest verdict on the criterion passed, and `not-evaluated` wherever no tester gave a verdict.
public enum ConformanceRollup {
    public enum Level: String, Sendable, CaseIterable {
        case supports
        case partiallySupports = "partially-supports"
        case doesNotSupport = "does-not-support"
        case notEvaluated = "not-evaluated"
    }

    /// One fix of the release with the latest feedback per tester on the revision that was released.
    public struct FixEvidence: Sendable {
        public var fix: Fix
        public var latest: [Feedback]

        public init(fix: Fix, latest: [Feedback]) {
            self.fix = fix
            self.latest = latest
        }
    }

    /// One row of a WCAG table: a criterion, a component (`software` for the apps, `web`), its level and the words
    /// that back it.
    public struct Row: Sendable, Equatable {
        public var criterion: WCAGCatalog.Criterion
        public var component: String
        public var level: Level
        public var notes: String
    }

    /// The OpenACR component a platform's feedback speaks for.
    public static func component(_ platform: Platform) -> String { platform == .web ? "web" : "software" }

    /// Every current WCAG 2.2 criterion (A, AA, AAA) for every component the fixes ship on, in catalog order.
    public static func rows(_ evidence: [FixEvidence]) -> [Row] {
        let shipped = Set(evidence.flatMap { $0.fix.platforms.map(component) })
        let components = ["software", "web"].filter { shipped.isEmpty || shipped.contains($0) }
        // Each record is read once, into a small entry per cell: a release's tens of thousands of records are never
        // copied per criterion (BENCHMARKS.md, the conformance report).
        var setups = Setups()
        var byCell: [String: [Entry]] = [:]
        for (fixIndex, item) in evidence.enumerated() {
            let numbers = Set(item.fix.wcag)
            for record in item.latest {
                let entry = Entry(fix: fixIndex, verdict: record.verdict, setup: setups.id(of: record))
                let name = component(record.platform)
                for number in numbers { byCell["\(number) \(name)", default: []].append(entry) }
            }
        }
        return WCAGCatalog.criteria.filter { ["A", "AA", "AAA"].contains($0.level) }.flatMap { criterion in
            components.map { name in
                let cell = byCell["\(criterion.number) \(name)"] ?? []
                return Row(criterion: criterion, component: name, level: level(cell.map(\.verdict)),
                           notes: notes(cell, fixes: evidence, setups: setups.names))
            }
        }
    }

    /// One latest verdict in a cell: the fix it is on (an index into the evidence) and the setup it was given with.
    struct Entry {
        var fix: Int
        var verdict: Verdict
        var setup: Int
    }

    /// Each setup in words once ("VoiceOver on iOS 18.2"), numbered in the order first met.
    struct Setups {
        var names: [String] = []
        var ids: [String: Int] = [:]

        mutating func id(of record: Feedback) -> Int {
            let name = ConformanceRollup.setup(record)
            if let id = ids[name] { return id }
            names.append(name)
            ids[name] = names.count - 1
            return names.count - 1
        }
    }

    /// `supports` when every verdict passed; `does-not-support` when some failed and none passed; `partially-supports`
    /// when passes stand beside failures or testers who could not tell; `not-evaluated` without a pass or a failure.
    public static func level(_ verdicts: [Verdict]) -> Level {
        let passed = verdicts.filter { $0 == .passed }.count
        let failed = verdicts.filter { $0 == .failed }.count
        if passed + failed == 0 { return .notEvaluated }
        if passed == verdicts.count { return .supports }
        return passed == 0 ? .doesNotSupport : .partiallySupports
    }

    /// "Verified by assistive-technology users on fixes a (revision 2), b (revision 1). Passed: 2 testers with VoiceOver on
    /// iOS 18.2. Failed: 1 tester with NVDA on the web (Firefox)."
    static func notes(_ cell: [Entry], fixes evidence: [FixEvidence], setups: [String]) -> String {
        guard !cell.isEmpty else { return "No tester has verified this criterion in the fixes of this report." }
        var fixes: [String] = []
        var seenFixes = Set<Int>()
        var seenNames = Set<String>()
        for entry in cell where seenFixes.insert(entry.fix).inserted {
            let fix = evidence[entry.fix].fix
            let name = "\(fix.key.rawValue) (revision \(fix.revision))"
            if seenNames.insert(name).inserted { fixes.append(name) }
        }
        var sentences = ["Verified by assistive-technology users on \(fixes.count == 1 ? "fix" : "fixes") \(fixes.joined(separator: ", "))."]
        for verdict in Verdict.allCases {
            // Setups in the order first met, each with how many testers gave this verdict with it.
            var order: [Int] = []
            var counts: [Int: Int] = [:]
            for entry in cell where entry.verdict == verdict {
                if counts[entry.setup] == nil { order.append(entry.setup) }
                counts[entry.setup, default: 0] += 1
            }
            guard !order.isEmpty else { continue }
            let label = verdict == .passed ? "Passed" : verdict == .failed ? "Failed" : "Could not tell"
            let parts = order.map { setup in
                let count = counts[setup] ?? 0
                return "\(count) \(count == 1 ? "tester" : "testers") with \(setups[setup])"
            }
            sentences.append("\(label): \(parts.joined(separator: ", ")).")
        }
        return sentences.joined(separator: " ")
    }

    /// "VoiceOver on iOS 18.2", "NVDA on the web (Firefox)": technology, platform and version, never a person.
    public static func setup(_ record: Feedback) -> String {
        var text = "\(record.assistiveTech.displayName) on \(record.platform.displayName)"
        if record.platform != .web && !record.osVersion.isEmpty { text += " \(record.osVersion)" }
        if let browser = record.browser { text += " (\(browser.displayName))" }
        return text
    }
}
