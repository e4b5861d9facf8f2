import Foundation
import VouchDomain
import VouchStore

/// A fix in testing with `records` feedback records from `testers` enrolled testers, for timing the feedback summary.
///
/// The fix, the testers and their enrollments go through `RelationalStore`'s own methods (as the API would write them);
/// the records are direct SQL INSERTs into `feedback` in one transaction, every column of Schema/0002 filled as
/// `RelationalStore.submit` fills it, and each tester's last record on the revision made their latest.
enum FeedbackPopulator {
    static let fixKey = "ios.player-controls.summary-bench"

    static func populate(stateDirectory: String, records: Int, testers testerCount: Int) throws {
        let clock = ContinuousClock()
        let start = clock.now
        let store = try FeedbackPopulator.emptyStore(in: stateDirectory)
        let now = Date()
        // The records span the last 30 days, so the fix went into testing before the first of them.
        let firstRecord = now.addingTimeInterval(-30 * 86_400)
        let created = firstRecord.addingTimeInterval(-3_600)

        let fix = Fix(key: try FixKey(validating: fixKey), title: "Label the playback controls", uiArea: "Player controls", platforms: [.ios, .android],
                      wcag: ["4.1.2"], author: "bench", createdAt: created, updatedAt: created)
        _ = try store.createFix(fix, by: "bench", emitting: [])
        let started = try store.updateFix(fixKey, action: .fixStart, by: "bench", note: nil, emitting: { _, _ in [] }) { try $0.applying(.start, at: created) }
        let revision = started.after.revision

        // Testers: about two thirds VoiceOver on iOS, the rest TalkBack on Android.
        var random = SplitMix64(seed: 0x5375_6D6D_6172_79)
        var profiles: [(id: String, technology: AssistiveTechnology, platform: Platform)] = []
        for number in 0..<testerCount {
            let id = "t_bench" + String(number + 100_000).dropFirst()
            let (technology, platform): (AssistiveTechnology, Platform) = number % 3 == 2 ? (.talkback, .android) : (.voiceover, .ios)
            let tester = Tester(id: id, name: "Bench tester \(number)", contact: nil,
                                assistiveTech: [AssistiveTechProfile(technology: technology, platform: platform, version: "18")],
                                targetingKeys: ["bench-user-\(number)"], consent: Consent(version: "v1", givenAt: created, recordedBy: "bench"),
                                createdAt: created, updatedAt: created)
            _ = try store.createTester(tester, by: "bench")
            profiles.append((id, technology, platform))
        }
        _ = try store.enroll(profiles.map(\.id), in: fixKey, by: "bench", at: created)

        // Who gave each record, in time order; the last record of each tester is its latest.
        let givers = (0..<records).map { _ in Int.random(in: 0..<testerCount, using: &random) }
        var lastOf = [Int: Int]()
        for (index, tester) in givers.enumerated() { lastOf[tester] = index }
        let spanMilliseconds = Int64(now.timeIntervalSince(firstRecord) * 1_000)
        let firstMilliseconds = StoreClock.milliseconds(firstRecord)

        try store.database.write { connection in
            // As StorePopulator: one transaction, a large page cache (part 12 writes 10,000,000 records).
            try connection.execute("PRAGMA cache_size = -1048576")
            for index in 0..<records {
                let profile = profiles[givers[index]]
                let (verdict, severity, outcome, announced) = FeedbackPopulator.answers(roll: Int.random(in: 0..<100, using: &random), index: index)
                try connection.query(
                    """
                    INSERT INTO feedback (id, fix_key, revision, tester_id, platform, os_version, device, app_build, assistive_tech, at_version,
                        verdict, task_outcome, severity, name_announced, role_announced, state_announced, focus_order, heard, regression, wcag, comment,
                        channel, recorded_by, recorded_at_ms)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [.text("fb_bench" + String(index + 100_000_000).dropFirst()), .text(fixKey), .int(revision), .text(profile.id),
                     .text(profile.platform.rawValue), .text(profile.platform == .ios ? "18.2" : "15"),
                     .optional(index % 4 == 0 ? nil : (profile.platform == .ios ? "iPhone 15" : "Pixel 8")), .text("4.\(index % 50)"),
                     .text(profile.technology.rawValue), .optional(index % 2 == 0 ? "18" : nil), .text(verdict.rawValue), .text(outcome.rawValue),
                     .text(severity.rawValue), .optional(announced?.rawValue), .optional(announced?.rawValue), .optional(nil as String?), .optional(nil as String?),
                     .optional(verdict == .passed ? "Play, button" : nil), .int(0), .text(verdict == .failed ? "4.1.2" : ""),
                     .optional(verdict == .failed ? "The label is read twice" : nil), .text(index % 3 == 0 ? "cli" : "http"), .text("bench"),
                     .integer(firstMilliseconds + spanMilliseconds * Int64(index) / Int64(max(1, records)))])
            }
            try FeedbackPopulator.markLatest(on: connection)
        }
        let (count, latest) = try store.database.read { connection in
            (try connection.scalar("SELECT COUNT(*) FROM feedback WHERE fix_key = ? AND revision = ?", [.text(fixKey), .int(revision)]) ?? -1,
             try connection.scalar("SELECT COUNT(*) FROM latest_feedback WHERE fix_key = ? AND revision = ?", [.text(fixKey), .int(revision)]) ?? -1)
        }
        guard count == records, latest == lastOf.count else {
            throw BenchError("the database holds \(count) records and \(latest) latest ones; expected \(records) and \(lastOf.count)")
        }
        Report.line("Feedback populated fix", fixKey)
        Report.line("Feedback populated revision", String(revision))
        Report.line("Feedback populated records", String(count))
        Report.line("Feedback populated testers (enrolled, with records)", "\(testerCount), \(latest)")
        Report.line("Feedback populate time ms", Report.fixed(Report.milliseconds(clock.now - start)))
        Report.line("Feedback populate peak RSS MiB", Report.fixed(Double(PeakMemory.kibibytes()) / 1024))
    }

    /// Makes each tester's last record on each fix revision their latest, as `RelationalStore.submit` does a record at a time.
    static func markLatest(on connection: any SQLConnection) throws {
        try connection.query(
            """
            INSERT INTO latest_feedback (fix_key, revision, tester_id, seq)
            SELECT fix_key, revision, tester_id, MAX(seq) FROM feedback GROUP BY fix_key, revision, tester_id
            """)
    }

    /// A record's answers from a roll of 0 to 99: 85 % passed, 10 % failed (minor to serious, by `index`), 5 % can't tell.
    static func answers(roll: Int, index: Int) -> (Verdict, Severity, TaskOutcome, Announcement?) {
        let verdict: Verdict = roll < 85 ? .passed : roll < 95 ? .failed : .cantTell
        let severity: Severity = verdict == .failed ? [.minor, .moderate, .serious][index % 3] : .none
        let outcome: TaskOutcome = verdict == .passed ? .completedIndependently : verdict == .failed ? .completedWithWorkaround : .completedWithAssistance
        return (verdict, severity, outcome, verdict == .passed ? .yes : verdict == .failed ? .no : nil)
    }

    /// A new, empty vouchd database in `stateDirectory` (an earlier one there is removed), written without waiting for the disk.
    static func emptyStore(in stateDirectory: String) throws -> RelationalStore {
        try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = StorePopulator.databasePath(stateDirectory)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        return try RelationalStore(path: path, synchronous: .normal)
    }
}
