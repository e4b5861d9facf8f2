import Foundation
import VouchDomain
import VouchStore

/// A year of releases for timing the Accessibility Conformance Report (docs/evidence.md): `fixes` released fixes,
/// each naming two or three WCAG criteria and shipping on the apps, the web or both, with `records` feedback records
/// spread over them from `testers` testers using VoiceOver, TalkBack or NVDA.
///
/// Fixes and testers go through `RelationalStore`'s own methods, each fix started, promoted and released as the
/// daemon does it (so each has its release in the audit log); the records are direct SQL INSERTs into `feedback` in
/// one transaction, as `FeedbackPopulator` writes them, each tester's last record on a fix made their latest.
enum ReleasePopulator {
    /// The criteria the fixes name: the Level A and AA ones a screen reader user meets most.
    static let criteria = ["1.1.1", "1.3.1", "1.3.2", "1.4.3", "2.1.1", "2.4.3", "2.4.6", "2.4.7", "2.5.3", "3.3.1", "3.3.2", "4.1.2", "4.1.3",
                           "1.4.11", "2.4.4", "3.2.2"]

    static func populate(stateDirectory: String, fixes fixCount: Int, records: Int, testers testerCount: Int) throws {
        let clock = ContinuousClock()
        let start = clock.now
        let store = try FeedbackPopulator.emptyStore(in: stateDirectory)
        let created = Date().addingTimeInterval(-400 * 86_400)

        var random = SplitMix64(seed: 0x4143_5220_5245_504F)
        let setups: [(AssistiveTechnology, Platform, Browser?)] = [(.voiceover, .ios, nil), (.talkback, .android, nil), (.nvda, .web, .firefox),
                                                                   (.voiceover, .web, .safari)]
        var profiles: [(id: String, technology: AssistiveTechnology, platform: Platform, browser: Browser?)] = []
        for number in 0..<testerCount {
            let id = "t_acr" + String(number + 100_000).dropFirst()
            let (technology, platform, browser) = setups[number % setups.count]
            let tester = Tester(id: id, name: "Bench tester \(number)", contact: nil,
                                assistiveTech: [AssistiveTechProfile(technology: technology, platform: platform, version: "18", browser: browser)],
                                targetingKeys: ["acr-user-\(number)"], consent: Consent(version: "v1", givenAt: created, recordedBy: "bench"),
                                createdAt: created, updatedAt: created)
            _ = try store.createTester(tester, by: "bench")
            profiles.append((id, technology, platform, browser))
        }

        var keys: [(key: String, revision: Int, web: Bool, apps: Bool, released: Date)] = []
        for number in 0..<fixCount {
            let key = "acr-bench-fix-" + String(number + 100_000).dropFirst()
            let platforms: [Platform] = [[.ios, .android], [.web], [.ios, .android, .web]][number % 3]
            let wcag = Array(Set((0..<(2 + number % 2)).map { _ in criteria[Int.random(in: 0..<criteria.count, using: &random)] })).sorted()
            // Released over the last year, a few a day.
            let released = created.addingTimeInterval(Double(number) * 360 * 86_400 / Double(max(1, fixCount)) + 35 * 86_400)
            let fix = Fix(key: try FixKey(validating: key), title: "Bench fix \(number)", uiArea: "Screen \(number % 40)", platforms: platforms,
                          wcag: wcag, author: "bench", createdAt: created, updatedAt: created)
            _ = try store.createFix(fix, by: "bench", emitting: [])
            var revision = 0
            for (action, at) in [(FixAction.start, created), (.promote, released), (.promotionSucceeded, released)] {
                revision = try store.updateFix(key, action: AuditAction(transition: action), by: "bench", note: nil, emitting: { _, _ in [] }) {
                    try $0.applying(action, at: at)
                }.after.revision
            }
            keys.append((key, revision, platforms.contains(.web), platforms.contains(.ios), released))
        }
        // A release is when its audit event says, which the store writes at the present time: moved to the release day.
        try store.database.write { connection in
            for fix in keys {
                try connection.query("UPDATE audit_events SET at_ms = ? WHERE fix_key = ? AND action = ?",
                                     [.integer(StoreClock.milliseconds(fix.released)), .text(fix.key), .text(AuditAction.fixPromotionSucceeded.rawValue)])
            }
        }

        // Each record on a fix, by a tester whose platform the fix ships on; the last of each tester on a fix is its latest.
        let webTesters = profiles.indices.filter { profiles[$0].platform == .web }
        let appTesters = profiles.indices.filter { profiles[$0].platform != .web }
        var givers: [(fix: Int, tester: Int)] = []
        for index in 0..<records {
            let fix = index % keys.count
            let pool = keys[fix].web && (!keys[fix].apps || index % 2 == 0) ? webTesters : appTesters
            givers.append((fix, pool[Int.random(in: 0..<pool.count, using: &random)]))
        }
        var lastOf: [String: Int] = [:]
        for (index, giver) in givers.enumerated() { lastOf["\(giver.fix) \(giver.tester)"] = index }
        let firstMilliseconds = StoreClock.milliseconds(created)
        try store.database.write { connection in
            for (index, giver) in givers.enumerated() {
                let fix = keys[giver.fix]
                let profile = profiles[giver.tester]
                let (verdict, severity, outcome, announced) = FeedbackPopulator.answers(roll: Int.random(in: 0..<100, using: &random), index: index)
                try connection.query(
                    """
                    INSERT INTO feedback (id, fix_key, revision, tester_id, platform, os_version, device, app_build, assistive_tech, at_version,
                        browser, browser_version, verdict, task_outcome, severity, name_announced, role_announced, state_announced, focus_order, heard,
                        regression, wcag, comment, channel, recorded_by, recorded_at_ms)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [.text("fb_acr" + String(index + 100_000_000).dropFirst()), .text(fix.key), .int(fix.revision), .text(profile.id),
                     .text(profile.platform.rawValue),
                     .text(profile.platform == .ios ? "18.2" : profile.platform == .android ? "15" : "Windows 11"),
                     .optional(profile.platform == .web ? nil : profile.platform == .ios ? "iPhone 15" : "Pixel 8"), .text("5.\(giver.fix % 50)"),
                     .text(profile.technology.rawValue), .optional(index % 2 == 0 ? "18" : nil), .optional(profile.browser?.rawValue),
                     .optional(profile.browser == nil ? nil : "140"), .text(verdict.rawValue), .text(outcome.rawValue),
                     .text(severity.rawValue), .optional(announced?.rawValue), .optional(announced?.rawValue), .optional(nil as String?), .optional(nil as String?),
                     .optional(verdict == .passed ? "Play, button" : nil), .int(0), .text(""),
                     .optional(verdict == .failed ? "The label is read twice" : nil), .text(index % 3 == 0 ? "cli" : "http"), .text("bench"),
                     .integer(firstMilliseconds + Int64(index))])
            }
            try FeedbackPopulator.markLatest(on: connection)
        }
        let (count, latest) = try store.database.read { connection in
            (try connection.scalar("SELECT COUNT(*) FROM feedback") ?? -1, try connection.scalar("SELECT COUNT(*) FROM latest_feedback") ?? -1)
        }
        guard count == records, latest == lastOf.count else {
            throw BenchError("the database holds \(count) records and \(latest) latest ones; expected \(records) and \(lastOf.count)")
        }
        let day = { (date: Date) in String(date.formatted(.iso8601).prefix(10)) }
        Report.line("Release report populated fixes", String(keys.count))
        Report.line("Release report populated records", String(count))
        Report.line("Release report populated latest records", String(latest))
        Report.line("Release report period from", day(created))
        Report.line("Release report period to", day(Date()))
        Report.line("Release report populate time ms", Report.fixed(Report.milliseconds(clock.now - start)))
    }
}
