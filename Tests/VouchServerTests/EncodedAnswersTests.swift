import Foundation
import Synchronization
import Testing
import VouchDomain
@testable import VouchHTTP
@testable import VouchServer
@testable import VouchServerKit

/// A single evaluation's answer is encoded once per verdict and snapshot in each stripe, and never outlives its snapshot.
@Suite struct EncodedAnswersTests {
    static let testing = FlagRule(key: "tv.labels", state: .testing, revision: 1, targetedKeys: ["user-7"])

    static func verdict(_ snapshot: EvaluationSnapshot, flag: String, key: String?) -> FlagVerdict? {
        flag.withUTF8Bytes { flag in
            guard let key else { return snapshot.verdict(flag: flag, targetingKey: nil) }
            return key.withUTF8Bytes { snapshot.verdict(flag: flag, targetingKey: $0) }
        }
    }

    static func answer(_ verdict: FlagVerdict, in answers: inout EncodedAnswers, made: inout Int, body: String) -> String {
        let response = answers.answer(for: verdict) {
            made += 1
            return HTTPResponse(status: 200, body: Array(body.utf8))
        }
        return String(decoding: response.body, as: UTF8.self)
    }

    @Test func aVerdictIsEncodedOnceAndAnotherDecisionAgain() throws {
        let snapshot = EvaluationSnapshot(rules: ["tv.labels": EncodedAnswersTests.testing])
        let targeted = try #require(EncodedAnswersTests.verdict(snapshot, flag: "tv.labels", key: "user-7"))
        let other = try #require(EncodedAnswersTests.verdict(snapshot, flag: "tv.labels", key: "user-8"))
        #expect(targeted.reason == .targetingMatch && other.reason == .default)
        #expect(targeted.decisionCode != other.decisionCode)
        #expect(EncodedAnswersTests.verdict(snapshot, flag: "tv.label", key: "user-7") == nil)
        var answers = EncodedAnswers()
        var made = 0
        #expect(EncodedAnswersTests.answer(targeted, in: &answers, made: &made, body: "on") == "on")
        #expect(EncodedAnswersTests.answer(targeted, in: &answers, made: &made, body: "not used") == "on")
        #expect(made == 1)
        #expect(EncodedAnswersTests.answer(other, in: &answers, made: &made, body: "off") == "off")
        #expect(made == 2 && answers.count == 2)
        // A failure is a verdict too, with a code of its own.
        let missingKey = try #require(EncodedAnswersTests.verdict(snapshot, flag: "tv.labels", key: nil))
        #expect(missingKey.failure == .targetingKeyMissing && missingKey.decisionCode == 0)
    }

    @Test func theOutcomeOfAVerdictIsTheEvaluation() throws {
        let snapshot = EvaluationSnapshot(rules: ["tv.labels": EncodedAnswersTests.testing])
        for key in ["user-7", "user-8", nil] {
            let verdict = try #require(EncodedAnswersTests.verdict(snapshot, flag: "tv.labels", key: key))
            #expect(snapshot.outcome(of: verdict, key: "tv.labels") == snapshot.evaluate(flag: "tv.labels", targetingKey: key))
        }
    }

    @Test func aNewerSnapshotStartsWithNoAnswers() throws {
        let holder = SnapshotHolder(EvaluationSnapshot(rules: ["tv.labels": EncodedAnswersTests.testing]))
        let made = Mutex(0)
        func body() -> String {
            let response = holder.response { snapshot, answers in
                let verdict = EncodedAnswersTests.verdict(snapshot, flag: "tv.labels", key: "user-8")!
                return answers.answer(for: verdict) {
                    made.withLock { $0 += 1 }
                    return HTTPResponse(status: 200, body: Array("\(snapshot.revision) \(verdict.reason!.rawValue)".utf8))
                }
            }
            return String(decoding: response?.body ?? [], as: UTF8.self)
        }
        #expect(body() == "0 DEFAULT")
        #expect(body() == "0 DEFAULT")
        #expect(made.withLock { $0 } == 1)
        // The same decision for the key, but from a newer snapshot: encoded anew, so the revision is the new one.
        holder.update(FlagRule(key: "tv.labels", state: .testing, revision: 1, targetedKeys: ["user-7", "user-9"], version: 5))
        #expect(body() == "5 DEFAULT")
        #expect(made.withLock { $0 } == 2)
    }
}
