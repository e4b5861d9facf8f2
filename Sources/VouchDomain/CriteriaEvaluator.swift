import Foundation

/// Decides, without I/O, whether a fix's evidence and approvals meet its criteria at a given time.
public enum CriteriaEvaluator {
    public struct Input: Sendable {
        public var fix: Fix
        public var settings: CriteriaSettings
        /// The latest feedback per tester on the current revision.
        public var latest: [Feedback]
        /// Failing feedback on the current revision, in time order, for voiding approvals given before it: every
        /// record, or (as the store reads it) the first at or after each approval, which voids the same approvals.
        public var failing: [(id: String, recordedAt: Date)]
        /// When the current revision entered testing; nil if it never did.
        public var testingSince: Date?
        public var approvals: [Approval]
        public var now: Date
        /// Who shaped the current revision and may not decide on it; at least the fix's creator.
        public var authors: [RevisionAuthor]

        public init(fix: Fix, settings: CriteriaSettings, latest: [Feedback], failing: [(id: String, recordedAt: Date)], testingSince: Date?,
                    approvals: [Approval], now: Date, authors: [RevisionAuthor]? = nil) {
            self.fix = fix
            self.settings = settings
            self.latest = latest
            self.failing = failing
            self.testingSince = testingSince
            self.approvals = approvals
            self.now = now
            self.authors = authors ?? RevisionAuthor.authors(of: fix, from: [])
        }

        /// Whether `principal` shaped the current revision.
        public func isAuthor(_ principal: String) -> Bool {
            authors.contains { Principal.sameIdentity($0.principal, principal) }
        }
    }

    public static func evaluate(_ input: Input) -> CriteriaReport {
        var settings = input.settings
        // At least one release manager, whatever was configured or stored before this rule was enforced at input.
        settings.approvalsRequired = max(1, settings.approvalsRequired)
        let passed = input.latest.filter { $0.verdict == .passed }
        let failed = input.latest.filter { $0.verdict == .failed }
        var criteria: [CriteriaReport.Criterion] = []

        let passCount = passed.count
        criteria.append(.init(
            name: "min_testers_passed", met: passCount >= settings.minTestersPassed,
            summary: "\(passCount) of \(settings.minTestersPassed) passing \(plural(settings.minTestersPassed, "tester"))", details: [],
            missing: passCount >= settings.minTestersPassed ? nil
                : "\(settings.minTestersPassed - passCount) more passing \(plural(settings.minTestersPassed - passCount, "tester")) on revision \(input.fix.revision)"))

        // A platform the fix does not ship on requires nothing: an iOS fix never waits for a TalkBack tester.
        settings.requiredAssistiveTech = settings.requiredAssistiveTech.filter { input.fix.platforms.contains($0.platform) }
        var technologyLines: [String] = []
        var uncovered: [String] = []
        for requirement in settings.requiredAssistiveTech {
            let count = passed.filter { $0.platform == requirement.platform && $0.assistiveTech == requirement.technology }.count
            let name = "\(requirement.technology.displayName) on \(displayName(requirement.platform))"
            if count == 0 {
                technologyLines.append("\(name): no passing tester yet")
                uncovered.append(name)
            } else {
                technologyLines.append("\(name): \(count) passing \(plural(count, "tester"))")
            }
        }
        let coveredCount = settings.requiredAssistiveTech.count - uncovered.count
        criteria.append(.init(
            name: "required_assistive_tech", met: uncovered.isEmpty,
            summary: settings.requiredAssistiveTech.isEmpty ? "no assistive technology required"
                : "\(coveredCount) of \(settings.requiredAssistiveTech.count) required assistive technologies covered",
            details: technologyLines, missing: uncovered.isEmpty ? nil : "a passing tester with " + uncovered.joined(separator: " and with ")))

        let blocking = input.latest.filter(\.isBlocking)
        criteria.append(.init(
            name: "max_blocking", met: blocking.count <= settings.maxBlocking,
            summary: "\(blocking.count) blocking \(plural(blocking.count, "report")) (at most \(settings.maxBlocking) allowed)",
            details: blocking.map { "\($0.id) by \($0.testerID ?? "withdrawn"): \($0.regression ? "regression, " : "")severity \($0.severity.rawValue)" },
            missing: blocking.count <= settings.maxBlocking ? nil
                : "\(blocking.count - settings.maxBlocking) blocking \(plural(blocking.count - settings.maxBlocking, "report")) resolved by newer feedback from the same testers or a new revision"))

        let decided = passed.count + failed.count
        let ratio = decided == 0 ? 0 : Double(passed.count) / Double(decided)
        let ratioMet = decided > 0 && ratio + 1e-9 >= settings.minPassRatio
        criteria.append(.init(
            name: "min_pass_ratio", met: ratioMet || settings.minPassRatio == 0,
            summary: (decided == 0 ? "pass ratio: no passed or failed verdicts yet"
                : "pass ratio \(format(ratio)): \(passed.count) passed and \(failed.count) failed, can't tell not counted")
                + "; " + needed(settings.minPassRatio == 0 ? nil : format(settings.minPassRatio)),
            details: [], missing: ratioMet || settings.minPassRatio == 0 ? nil : "a pass ratio of at least \(format(settings.minPassRatio))"))

        let soaked = input.testingSince.map { max(0, Int(input.now.timeIntervalSince($0))) } ?? 0
        let soakMet = soaked >= settings.minSoakSeconds
        criteria.append(.init(
            name: "min_soak", met: soakMet,
            summary: (input.testingSince == nil
                ? "revision \(input.fix.revision) \(input.fix.state == .draft ? "has not entered testing yet" : "is not in testing")"
                : "revision \(input.fix.revision) has been in testing for \(duration(soaked))")
                + "; " + needed(settings.minSoakSeconds == 0 ? nil : duration(settings.minSoakSeconds)),
            details: [], missing: soakMet ? nil : "\(duration(settings.minSoakSeconds - soaked)) more in testing on revision \(input.fix.revision)"))

        var entries: [CriteriaReport.ApprovalEntry] = []
        for approval in input.approvals {
            entries.append(.init(approval: approval, standing: standing(of: approval, input: input)))
        }
        // One vote per person, however their name is spelled, and never an author's: an approval given before its
        // giver changed the fix stops counting.
        var validApprovals: [CriteriaReport.ApprovalEntry] = []
        for entry in entries where entry.approval.decision == .approve && entry.standing.isValid
            && !input.isAuthor(entry.approval.principal)
            && !validApprovals.contains(where: { Principal.sameIdentity($0.approval.principal, entry.approval.principal) }) {
            validApprovals.append(entry)
        }
        let rejections = entries.filter { $0.approval.decision == .reject && $0.approval.revision == input.fix.revision }
        let approvalsMet = rejections.isEmpty && validApprovals.count >= settings.approvalsRequired
        var approvalDetails = entries.map { entry in
            "\(entry.approval.decision == .approve ? "approved" : "rejected") by \(entry.approval.principal) on revision \(entry.approval.revision): \(entry.standing.explanation)"
                + (entry.approval.comment.map { " (\($0))" } ?? "")
                + (entry.approval.revision == input.fix.revision && input.isAuthor(entry.approval.principal)
                   ? "; does not count, since \(entry.approval.principal) has since shaped this revision" : "")
        }
        if approvalDetails.isEmpty { approvalDetails = ["no approvals recorded"] }
        approvalDetails.append("may not decide on revision \(input.fix.revision), having shaped it: " + RevisionAuthor.describe(input.authors))
        let approvalMissing: String?
        if let rejection = rejections.first {
            approvalMissing = "a new revision: \(rejection.approval.principal) rejected revision \(input.fix.revision)"
        } else if validApprovals.count < settings.approvalsRequired {
            let needed = settings.approvalsRequired - validApprovals.count
            let authors = input.authors.map(\.principal)
            approvalMissing = "\(needed) more \(plural(needed, "approval")) by a release manager other than "
                + (authors.count == 1 ? "the author (\(authors[0]))" : "its authors (\(RevisionAuthor.joined(authors)))")
        } else {
            approvalMissing = nil
        }
        criteria.append(.init(
            name: "approvals_required", met: approvalsMet,
            summary: rejections.isEmpty ? "\(validApprovals.count) of \(settings.approvalsRequired) valid \(plural(settings.approvalsRequired, "approval"))"
                : "rejected on revision \(input.fix.revision)",
            details: approvalDetails, missing: approvalMissing))

        return CriteriaReport(fixKey: input.fix.key.rawValue, revision: input.fix.revision, state: input.fix.state, criteria: criteria,
                              approvals: entries, evidenceHash: evidenceHash(revision: input.fix.revision, latest: input.latest),
                              promotion: PromotionProgress.summary(of: input.fix))
    }

    /// Whether new evidence could make the fix ready to promote: never without an approval of its current revision,
    /// since `evaluate` asks for at least one whatever the settings say. Feedback changes the evidence alone, so after
    /// feedback on a fix with no such approval there is nothing to promote, and no time to schedule (`nextTimeChange`
    /// reads no evidence).
    public static func evidenceMayPromote(_ fix: Fix, approvals: [Approval]) -> Bool {
        approvals.contains { $0.decision == .approve && $0.revision == fix.revision }
    }

    /// Whether an approval still counts at `input.now`.
    public static func standing(of approval: Approval, input: Input) -> ApprovalStanding {
        if approval.revision != input.fix.revision { return .otherRevision(approval.revision) }
        // Times are stored in milliseconds: a failing report in the same millisecond as the approval voids it, the safe side.
        if let failing = input.failing.first(where: { $0.recordedAt >= approval.recordedAt }) {
            return .voidedByFailingFeedback(feedbackID: failing.id)
        }
        let expiry = approval.recordedAt.addingTimeInterval(Double(input.settings.approvalExpirySeconds))
        if input.now >= expiry { return .expired(at: expiry) }
        return .valid
    }

    /// A fingerprint of the evidence (revision and the latest records), FNV-1a 64 in hex.
    public static func evidenceHash(revision: Int, latest: [Feedback]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let text = "\(revision)|" + latest.map { "\($0.id):\($0.verdict.rawValue):\($0.severity.rawValue)" }.sorted().joined(separator: ",")
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// When the report can next change by time alone (the time in testing reached, an approval expiring), for the daemon's timer.
    public static func nextTimeChange(_ input: Input) -> Date? {
        var times: [Date] = []
        if let since = input.testingSince {
            let soakEnd = since.addingTimeInterval(Double(input.settings.minSoakSeconds))
            if soakEnd > input.now { times.append(soakEnd) }
        }
        for approval in input.approvals where approval.revision == input.fix.revision {
            let expiry = approval.recordedAt.addingTimeInterval(Double(input.settings.approvalExpirySeconds))
            if expiry > input.now { times.append(expiry) }
        }
        return times.min()
    }

    static func plural(_ count: Int, _ word: String) -> String { count == 1 ? word : word + "s" }

    static func format(_ ratio: Double) -> String { String(format: "%.2f", ratio) }

    static func displayName(_ platform: Platform) -> String { platform.displayName }

    /// "needs" in one form for every criterion: "24 hours needed", or "none needed" when the criterion asks for nothing.
    static func needed(_ amount: String?) -> String { "\(amount ?? "none") needed" }

    /// In words a screen reader says as they are: "30 seconds", "45 minutes", "3 hours 20 minutes", "2 days 3 hours".
    public static func duration(_ seconds: Int) -> String {
        let seconds = max(0, seconds)
        if seconds < 60 { return count(seconds, "second") }
        if seconds < 3_600 { return count(seconds / 60, "minute") }
        // Up to two days reads best in hours ("revision 1 has been in testing for 3 hours; 24 hours needed").
        if seconds < 2 * 86_400 {
            let minutes = (seconds % 3_600) / 60
            return count(seconds / 3_600, "hour") + (minutes == 0 ? "" : " " + count(minutes, "minute"))
        }
        let hours = (seconds % 86_400) / 3_600
        return count(seconds / 86_400, "day") + (hours == 0 ? "" : " " + count(hours, "hour"))
    }

    static func count(_ count: Int, _ unit: String) -> String { "\(count) \(plural(count, unit))" }
}
