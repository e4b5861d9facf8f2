import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServices
import VouchStore

/// The one place errors become HTTP answers (docs/contracts.md, "Errors").
package enum ErrorResponses {
    /// What a 503 for a busy database asks the client to wait: long enough for a backup step or a short script to finish.
    static let busyRetryAfterSeconds = 1

    package static func problem(for error: any Error) -> Problem? {
        switch error {
        case let problem as Problem:
            return problem
        case let failure as ValidationFailure:
            let count = failure.errors.count
            return Problem(status: 422, detail: count == 1 ? "1 field is not valid" : "\(count) fields are not valid",
                           errors: failure.errors.map { Problem.FieldIssue(field: $0.field, message: $0.message) })
        case let fieldError as FieldError:
            return Problem(status: 422, detail: "1 field is not valid",
                           errors: [Problem.FieldIssue(field: fieldError.field, message: fieldError.message)])
        case let refused as TransitionRefused:
            return Problem(status: 409, detail: refused.description)
        case let notMet as CriteriaNotMet:
            return Problem(status: 409, detail: notMet.description, errors: notMet.unmet.map { .init(field: $0.name, message: $0.missing) })
        case let parseError as JSONParseError:
            return Problem(status: 400, detail: "the body is not valid JSON: \(parseError)")
        case let conflict as StoreConflict:
            return Problem(status: 409, detail: conflict.description)
        case let refused as DecisionRefused:
            return Problem(status: 403, detail: refused.description)
        case let denied as AccessDenied:
            return Problem(status: 403, detail: denied.description)
        case let missing as NotFound:
            return Problem(status: 404, detail: missing.description)
        case let busy as TryAgainSoon:
            return Problem(status: 503, detail: busy.description, headers: [(name: "Retry-After", value: "1")])
        case let ended as CredentialEnded:
            // Revoked on another vouchd a moment ago: this one's copy of the tokens had not heard yet, the write did.
            return Problem(status: 401, detail: ended.description)
        case let closed as InvitationClosed:
            return Problem(status: 410, detail: closed.description)
        case StoreError.notFound(let kind, let id):
            return Problem(status: 404, detail: "no \(kind) '\(id)'")
        case StoreError.alreadyExists(let kind, let id):
            return Problem(status: 409, detail: "a \(kind) '\(id)' already exists")
        case let unavailable as StoreUnavailable:
            return problem(for: unavailable.reason)
        default:
            return nil
        }
    }

    private static func problem(for unavailable: StoreUnavailable.Reason) -> Problem {
        switch unavailable {
        case .busy(let holder):
            // Another process (a backup, an operator's sqlite3 shell, another vouchd) held the write lock past the
            // time a write waits. The transaction was rolled back, so the client may simply retry.
            let who = switch holder {
            case .anotherConnection: "another connection"
            case .anotherVouchd: "another vouchd"
            }
            return Problem(status: 503, detail: "the database is busy: \(who) holds its write lock, so the change was not stored; "
                               + "retry in \(busyRetryAfterSeconds) s", headers: [(name: "Retry-After", value: String(busyRetryAfterSeconds))])
        case .unreachable:
            // The connection went away; if it went during COMMIT, the change may have been stored after all, which a
            // retry with the same Idempotency-Key (where the route takes one) settles.
            return Problem(status: 503, detail: "the database does not answer, so the change may not have been stored; "
                               + "send it again in \(busyRetryAfterSeconds) s", headers: [(name: "Retry-After", value: String(busyRetryAfterSeconds))])
        case .diskFull:
            return Problem(status: 507, detail: "the disk holding the database is full, so the change was not stored; "
                               + "free space in the state directory, then retry")
        }
    }
}
