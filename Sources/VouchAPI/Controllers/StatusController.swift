import Foundation
import VouchCodec
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServerKit
import VouchServices
import VouchStore

/// `/v1/fixes/{key}/status`, `/criteria` and `/rollout`: what stands between a fix and everyone, and how it ships.
struct StatusController {
    let store: any Store
    let promotion: PromotionService
    let fixes: FixService
    let settings: ApplicationSettings
    let clock: @Sendable () -> Date

    package func register(in router: inout APIRouter) {
        router.add("GET", "/v1/fixes/{key}/status", .readAll, status)
        // Criteria decide when a fix may reach everyone, so only those who decide releases set them: a maintainer who
        // could lower them would release her own fix alone (docs/lifecycle.md, "Approvals").
        router.add("PUT", "/v1/fixes/{key}/criteria", .decideRelease, setCriteria)
        router.add("PUT", "/v1/fixes/{key}/rollout", .decideRelease, setRollout)
    }

    func status(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let key = context.parameters["key"]
        guard let fix = try store.fix(key) else { throw StoreError.notFound(kind: "fix", id: key) }
        return .json(StatusController.json(try promotion.report(for: fix), fix: fix))
    }

    func setCriteria(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let (overrides, errors) = CriteriaOverrides.read(try RequestBody.json(request))
        let fix = try fixes.setCriteria(of: context.parameters["key"], to: overrides, readErrors: errors, by: context.principal)
        return .json(StatusController.json(try promotion.report(for: fix), fix: fix))
    }

    /// `{"phased": true, "steps": [1, 5, 100], "interval": "24h"}` or `{"phased": false}`; only before release.
    func setRollout(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        var reader = JSONFieldReader(object: try RequestBody.object(request))
        let phased = reader.bool("phased")
        var steps = settings.rollout.steps
        var interval = settings.rollout.intervalSeconds
        if let value = reader.value("steps") {
            if let numbers = value.arrayValue?.compactMap(\.intValue), numbers.count == value.arrayValue?.count { steps = numbers }
            else { reader.addError(FieldError(field: "steps", message: "must be an array of whole percentages, such as [1, 2, 5, 10, 20, 50, 100]")) }
        }
        if let text = reader.string("interval") {
            do { interval = try DurationText.seconds(text, field: "interval", allowed: RolloutPlan.intervalRange) } catch { reader.addError(error) }
        }
        if phased == nil && reader.errors.isEmpty { reader.addError(FieldError(field: "phased", message: "is required: true for a phased rollout, false for everyone at once")) }
        if phased == true { RolloutPlan.validate(steps: steps, intervalSeconds: interval).forEach { reader.addError($0) } }
        try reader.finish()
        let time = clock()
        let change = try store.updateFix(context.parameters["key"], action: .fixRollout, by: context.requester, note: nil) { fix in
            let editable: [FixState] = [.draft, .testing, .promotionFailed, .rolledBack, .paused]
            guard editable.contains(fix.state) else {
                throw StoreConflict("fix \(fix.key) is \(fix.state.rawValue); the rollout profile is set before promotion (draft, testing, promotion_failed, paused or rolled_back)")
            }
            var next = fix
            next.rollout = phased == true ? RolloutPlan(steps: steps, intervalSeconds: interval) : nil
            if next != fix { next.updatedAt = time }
            return next
        }
        return .json(change.after.jsonValue)
    }

    static func json(_ report: CriteriaReport, fix: Fix) -> JSONValue {
        .object([
            "fix": .string(report.fixKey), "revision": .int(report.revision), "state": .string(report.state.rawValue),
            "criteria_met": .bool(report.allMet), "ready_to_promote": .bool(report.readyToPromote), "promotion": .optional(report.promotion),
            "criteria": .array(report.criteria.map { criterion in
                .object(["name": .string(criterion.name), "met": .bool(criterion.met), "summary": .string(criterion.summary),
                         "details": .strings(criterion.details), "missing": .optional(criterion.missing)])
            }),
            "missing": .strings(report.missing),
            "approvals": .array(report.approvals.map(ApprovalController.json)),
            "evidence_hash": .string(report.evidenceHash),
            "rollout_percentage": fix.rolloutPercentage.map(JSONValue.int) ?? .null,
        ])
    }
}
