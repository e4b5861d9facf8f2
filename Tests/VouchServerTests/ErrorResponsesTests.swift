import Testing
import VouchHTTP
@testable import VouchServer
@testable import VouchServerKit
import VouchStore

/// The store's "not now" failures become the answers clients and operators rely on: what to do, and when to retry.
struct ErrorResponsesTests {
    struct Answer: Equatable, CustomStringConvertible {
        var status: Int
        var detail: String
        var retryAfter: String?

        var description: String { "\(status) \(detail) Retry-After: \(retryAfter ?? "none")" }
    }

    static let cases: [(StoreUnavailable.Reason, Answer)] = [
        (.busy(heldBy: .anotherConnection),
         Answer(status: 503, detail: "the database is busy: another connection holds its write lock, so the change was not stored; retry in 1 s",
                retryAfter: "1")),
        (.busy(heldBy: .anotherVouchd),
         Answer(status: 503, detail: "the database is busy: another vouchd holds its write lock, so the change was not stored; retry in 1 s",
                retryAfter: "1")),
        (.unreachable,
         Answer(status: 503, detail: "the database does not answer, so the change may not have been stored; send it again in 1 s",
                retryAfter: "1")),
        (.diskFull,
         Answer(status: 507, detail: "the disk holding the database is full, so the change was not stored; free space in the state directory, then retry",
                retryAfter: nil)),
    ]

    @Test(arguments: cases)
    func aStoreThatCannotTakeTheWorkNowAnswers(reason: StoreUnavailable.Reason, expected: Answer) throws {
        let problem = try #require(ErrorResponses.problem(for: StoreUnavailable(reason, cause: "what the database said")))
        let answer = Answer(status: problem.status, detail: problem.detail,
                            retryAfter: problem.headers.first { $0.name == "Retry-After" }?.value)
        #expect(answer == expected)
        #expect(!problem.detail.contains("what the database said"), "the database's words are for the log, not the client")
    }
}
