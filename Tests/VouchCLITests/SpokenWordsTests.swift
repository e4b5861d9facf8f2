import Foundation
import Testing
import VouchDomain
@testable import VouchCLI

/// The one table of words for the API's names: every name the domain knows has words a screen reader says well,
/// and a name from a newer server is still said without its underscores.
@Suite struct SpokenWordsTests {
    @Test(arguments: [
        ("cant_tell", SpokenWords.Vocabulary.verdict, "can't tell"),
        ("completed_with_workaround", .taskOutcome, "completed with a workaround"),
        ("min_testers_passed", .field, "minimum passing testers"),
        ("wcag", .field, "WCAG"),
        ("release_manager", .role, "release manager"),
        ("sdk", .role, "SDK"),
        ("promotion_failed", .fixState, "promotion failed"),
        ("rolled_back", .fixState, "rolled back"),
        ("ios", .platform, "iOS"),
        ("switch_control", .assistiveTech, "Switch Control"),
        ("n/a", .announcement, "not applicable"),
        ("cli", .channel, "the command line"),
        ("fix.promotion_failed", .eventType, "fix promotion failed"),
        ("fix.enroll", .auditAction, "enrolled testers in"),
        ("TARGETING_MATCH", .evaluationReason, "targeting match"),
        ("FLAG_NOT_FOUND", .evaluationError, "flag not found"),
        // Names this version does not know yet.
        ("some_new_state", .fixState, "some new state"),
        ("fix.some-action", .auditAction, "fix some action"),
        ("NEW_ERROR_CODE", .evaluationError, "new error code"),
    ])
    func words(_ name: String, _ vocabulary: SpokenWords.Vocabulary, _ expected: String) {
        #expect(SpokenWords.say(name, vocabulary) == expected)
    }

    @Test(arguments: [
        ("wcag[0]", "WCAG, item 1"),
        ("testers[2]", "testers, item 3"),
        ("[1].verdict", "record 2, verdict"),
        ("[0].wcag[1]", "record 1, WCAG, item 2"),
        ("assistive_tech[0].platform", "assistive technology, item 1, platform"),
        ("task_outcome", "task outcome"),
        ("min_soak", "time in testing before promotion"),
        ("(body)", "the request body"),
        ("[3]", "record 4"),
    ])
    func fieldPaths(_ path: String, _ expected: String) {
        #expect(SpokenWords.fieldPath(path) == expected)
    }

    @Test func recordValuesBySpokenField() {
        #expect(SpokenWords.say("cant_tell", ofField: "verdict") == "can't tell")
        #expect(SpokenWords.say("n/a", ofField: "focus_order") == "not applicable")
        #expect(SpokenWords.say("18.2", ofField: "os_version") == "18.2")
    }

    /// Every name of every domain vocabulary is in the table, so none falls back to a guess.
    @Test func everyDomainNameHasItsWords() throws {
        func expectAll(_ names: [String], _ vocabulary: SpokenWords.Vocabulary) {
            for name in names { #expect(SpokenWords.table[vocabulary]?[name] != nil, "\(vocabulary): \(name)") }
        }
        expectAll(Verdict.allCases.map(\.rawValue), .verdict)
        expectAll(TaskOutcome.allCases.map(\.rawValue), .taskOutcome)
        expectAll(Severity.allCases.map(\.rawValue), .severity)
        expectAll(Platform.allCases.map(\.rawValue), .platform)
        expectAll(AssistiveTechnology.allCases.map(\.rawValue), .assistiveTech)
        expectAll(Announcement.allCases.map(\.rawValue), .announcement)
        expectAll(FeedbackChannel.allCases.map(\.rawValue), .channel)
        expectAll(Role.allCases.map(\.rawValue), .role)
        expectAll(FixState.allCases.map(\.rawValue), .fixState)
        expectAll(WebhookDelivery.Status.allCases.map(\.rawValue), .deliveryStatus)
        expectAll(WebhookEvent.types + ["webhook.test"], .eventType)
        expectAll(FixAction.allCases.map { "fix." + $0.rawValue }, .auditAction)
        expectAll([EvaluationReason.disabled, .targetingMatch, .default, .split, .static].map(\.rawValue), .evaluationReason)
        // The criteria's names, as the evaluator reports them.
        let fix = Fix(key: try FixKey(validating: "k"), title: "T", uiArea: "A", platforms: [.ios], author: "a", createdAt: Date(), updatedAt: Date())
        let report = CriteriaEvaluator.evaluate(.init(fix: fix, settings: CriteriaSettings(), latest: [], failing: [], testingSince: nil, approvals: [],
                                                      now: Date()))
        expectAll(report.criteria.map(\.name), .field)
    }

    /// No word in the table is an API name read aloud: no underscores, no dotted names.
    @Test func noWordsAreAPINames() {
        for (vocabulary, words) in SpokenWords.table {
            for (name, said) in words {
                #expect(!said.contains("_") && !said.contains("."), "\(vocabulary): \(name) is said '\(said)'")
            }
        }
    }

    /// State conflicts and role refusals from the server name states and roles in prose; said as words, whole names only.
    @Test(arguments: [
        ("fix k is promotion_failed; approvals are recorded while it is testing or promotion_failed",
         "fix k is promotion failed; approvals are recorded while it is testing or promotion failed"),
        ("the role release_manager may not do this", "the role release manager may not do this"),
        ("set before promotion (draft, testing, promotion_failed, paused or rolled_back)",
         "set before promotion (draft, testing, promotion failed, paused or rolled back)"),
        ("the fix x_rolled_back_y keeps its key", "the fix x_rolled_back_y keeps its key"),
        ("nothing to say", "nothing to say"),
    ])
    func proseSaysStatesAndRolesAsWords(_ text: String, _ expected: String) {
        #expect(SpokenWords.prose(text) == expected)
    }
}
