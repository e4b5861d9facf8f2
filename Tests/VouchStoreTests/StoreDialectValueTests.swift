import Foundation
import Testing
import VouchDomain
@testable import VouchStore

/// Values where the two databases could part ways: text the PostgreSQL connection must bind rather than splice
/// (it rewrites `?` placeholders to `$N`), Unicode that must come back byte for byte (no normalisation), empty
/// strings that must not become NULL, zero bytes in blobs, and the extremes of 64-bit numbers.
struct StoreDialectValueTests {
    let time = StoreFixtures.time

    /// Compared as UTF-8 bytes: Swift's `==` holds canonically equivalent strings equal, which would hide a
    /// database that normalised "e" + U+0301 into "é".
    static let texts = [
        "🦮 guide dog 👩🏽‍🦯", "e\u{301}cole", "مرحبا بالعالم", "\u{202E}desrever\u{202C} text", "", "?", "?1 and ?2", "$1", "$$ dollar $$",
        "'; DROP TABLE fixes; --", "\"double\" 'single' `back`", "a -- not a comment", "/* not a comment */", "back\\slash", "100% _like_",
        "\u{FEFF}byte order mark", "tab\tline\nbreak",
    ]

    func bytes(_ texts: [String?]) -> [[UInt8]?] { texts.map { $0.map { Array($0.utf8) } } }

    /// Two digits, so rows listed by id come in the order of `texts`.
    func number(_ index: Int) -> String { index < 10 ? "0\(index)" : "\(index)" }

    @Test(arguments: StoreBackend.allCases)
    func textRoundTripsByteForByteThroughEveryKindOfRow(backend: StoreBackend) throws {
        try backend.withStore { store in
            let texts = Self.texts
            try StoreFixtures.fixInTesting(store, testers: 0)
            let key = "tv-channel-selector-labels"
            var fixes: [Fix] = []
            for (index, text) in texts.enumerated() {
                var fix = try StoreFixtures.fix("text-" + number(index))
                (fix.title, fix.description, fix.uiArea, fix.expectedAnnouncement, fix.author) = (text, text, text, text, text)
                fixes.append(try store.createFix(fix, by: Requester(name: text, credential: nil)))
                _ = try store.updateFix(fix.key.rawValue, action: .fixUpdate, by: "maria", note: text) { $0 }
            }
            #expect(try store.fixes(state: .draft, after: nil, limit: 100) == fixes)
            #expect(bytes(try store.fixes(state: .draft, after: nil, limit: 100).map(\.description)) == bytes(texts))
            let notes = try store.auditEvents(fix: nil, after: nil, limit: 1_000).filter { $0.action == .fixUpdate }.map(\.note)
            #expect(bytes(notes) == bytes(texts))

            // Targeting keys come back in byte order, as SQLite compares them.
            _ = try store.changeTargets(of: key, adding: texts, removing: [], by: "maria", at: time)
            let byteOrder = texts.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
            #expect(try store.targets(of: key).map { Array($0.utf8) } == byteOrder)

            for (index, text) in texts.enumerated() {
                var tester = StoreFixtures.tester("t_\(index)", keys: [text])
                (tester.name, tester.contact) = (text, text)
                tester.assistiveTech = [AssistiveTechProfile(technology: .voiceover, platform: .ios, version: text)]
                _ = try store.createTester(tester, by: "maria")
                #expect(try store.tester("t_\(index)") == tester)
                #expect(bytes([try store.tester("t_\(index)")?.name]) == bytes([text]))
            }
            _ = try store.enroll(texts.indices.map { "t_\($0)" }, in: key, by: "maria", at: time)
            var records: [Feedback] = []
            for (index, text) in texts.enumerated() {
                var record = StoreFixtures.passing("fb_\(index)", by: "t_\(index)")
                (record.comment, record.heard, record.device, record.osVersion, record.appBuild, record.atVersion) = (text, text, text, text, text, text)
                records.append(record)
            }
            _ = try store.submitFeedback(records, by: "maria", idempotency: IdempotencyClaim(principal: Self.texts[9], key: Self.texts[7], requestSHA256: [0]))
            let stored = try store.feedback(of: key, tester: nil, revision: nil, after: nil, limit: 100).map(\.feedback)
            #expect(stored == records)
            #expect(bytes(stored.map(\.comment)) == bytes(texts))
            let replay = try store.submitFeedback(to: key, by: "maria", idempotency: IdempotencyClaim(principal: Self.texts[9], key: Self.texts[7], requestSHA256: [0]),
                                                  { _ in [] }, emitting: { _, _, _ in [] })
            #expect(replay.replayed && replay.records == records)

            for (index, text) in texts.enumerated() {
                try store.recordApproval(Approval(id: "apr_" + number(index), fixKey: key, revision: 1, principal: "rm_\(index)", decision: .approve, comment: text,
                                                  evidenceHash: text, recordedAt: time), by: "rita", replacing: nil, emitting: [])
                let session = [UInt8(index), 0]
                try store.createConsoleSession(ConsoleSession(idSHA256: session, holder: .token(id: text), csrf: text, createdAt: time, lastSeenAt: time,
                                                              expiresAt: time.addingTimeInterval(60)), by: "maria", keepingAtMost: .init(perCredential: 100, perTester: 100))
                try store.saveConsoleDraft(session: session, fix: key, answers: text, at: time)
                #expect(bytes([try store.consoleDraft(session: session, fix: key)]) == bytes([text]))
                #expect(try store.consoleSession(idSHA256: session, at: time)?.csrf == text)
            }
            let approvals = try store.approvals(of: key)
            #expect(bytes(approvals.map(\.comment)) == bytes(texts))
            #expect(bytes(approvals.map(\.evidenceHash)) == bytes(texts))
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func blobsWithZeroBytesRoundTripAndAreFoundByValue(backend: StoreBackend) throws {
        try backend.withStore { store in
            let zeros = Array(repeating: UInt8(0), count: 32)
            let oneAtTheEnd = Array(repeating: UInt8(0), count: 31) + [1]
            try store.createToken(StoreFixtures.token("tok_zeros", hash: zeros), principal: nil, by: "admin")
            try store.createToken(StoreFixtures.token("tok_one", hash: oneAtTheEnd), principal: nil, by: "admin")
            _ = try store.revokeToken("tok_zeros", by: "admin", at: time)
            #expect(try store.revokedTokenHashes() == [zeros], "a hash of zeros is neither empty nor cut at its first zero")
            #expect(try store.activeTokens().map(\.secretSHA256) == [oneAtTheEnd])

            _ = try store.createTester(StoreFixtures.tester("t_0", keys: []), by: "maria")
            for (id, secret) in [("tl_zeros", zeros), ("tl_one", oneAtTheEnd)] {
                try store.createTesterLink(TesterLink(id: id, testerID: "t_0", secretSHA256: secret, createdBy: "maria", createdAt: time,
                                                      expiresAt: time.addingTimeInterval(60)), by: "maria")
            }
            #expect(try store.testerLink(secretSHA256: zeros)?.id == "tl_zeros")
            #expect(try store.testerLink(secretSHA256: oneAtTheEnd)?.id == "tl_one")
            #expect(try store.testerLink(secretSHA256: []) == nil)
            #expect(try store.testerLink(secretSHA256: Array(zeros.prefix(31))) == nil)

            try store.createEndpoint(StoreFixtures.endpoint("we_a"), by: "admin")
            let body: [UInt8] = [0] + Array(0...255) + [0]
            _ = try store.enqueue([StoreFixtures.event("evt_bytes", body: body), StoreFixtures.event("evt_empty", body: [])], onlyTo: nil, by: "admin")
            let jobs = try store.claimDeliveries(at: time, by: "node", leaseUntil: time.addingTimeInterval(30), excluding: [], limit: 10)
            #expect(Set(jobs.map(\.body)) == [body, []])
            #expect(try store.serverKey(named: "zeros") { zeros } == zeros)
        }
    }

    /// Times are clamped to ±2^53 ms before they are stored (`StoreClock`); paging takes any 64-bit position.
    @Test(arguments: StoreBackend.allCases)
    func sixtyFourBitExtremesAreStoredAndComparedAlike(backend: StoreBackend) throws {
        try backend.withStore { store in
            var fix = try StoreFixtures.fix("far-times")
            fix.createdAt = Date(timeIntervalSince1970: -1e300)
            fix.updatedAt = .distantFuture.addingTimeInterval(1e20)
            _ = try store.createFix(fix, by: "maria")
            let stored = try #require(try store.fix("far-times"))
            #expect(stored.createdAt == StoreClock.date(-(1 << 53)))
            #expect(stored.updatedAt == StoreClock.date(1 << 53))

            #expect(try store.configurationChanges(since: Int64.min).map(\.revision) == [1])
            #expect(try store.configurationChanges(since: Int64.max).isEmpty)
            #expect(try store.auditEvents(fix: "far-times", after: Int64.min, limit: Int.max).count == 1)
            #expect(try store.fixes(state: nil, after: nil, limit: Int.max).count == 1)
            #expect(try store.followOtherProcesses(from: Int64.max) == Int64.max, "nothing after the highest revision")
        }
    }
}
