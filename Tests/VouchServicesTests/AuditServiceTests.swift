import Foundation
import Testing
import VouchDomain
import VouchServices
import VouchStore

/// Reading the audit log: who may, and the filter read from what a person typed, as the API and the console read it.
@Suite struct AuditServiceTests {
    @Test func aDayRunsFromItsFirstMomentToTheNextDaysAndATimeIsExact() throws {
        let filter = try AuditService.filter(fix: nil, action: "fix.criteria", principal: "rita", since: "2026-12-04", until: "2026-12-04")
        #expect(filter.action == .fixCriteria && filter.principal == "rita" && filter.fix == nil)
        #expect(filter.since == Date(timeIntervalSince1970: 1_796_342_400))
        #expect(filter.until == Date(timeIntervalSince1970: 1_796_342_400 + 86_400), "until a day includes that whole day")
        let exact = try AuditService.filter(fix: "menu", action: nil, principal: nil, since: "2026-12-04T14:03:00Z", until: "2026-12-04T14:03:00.500Z")
        #expect(exact.since == Date(timeIntervalSince1970: 1_796_392_980) && exact.until == Date(timeIntervalSince1970: 1_796_392_980.5))
        #expect(exact.fix == "menu" && exact.action == nil)
    }

    @Test func everyBadValueIsNamedAtOnce() {
        do {
            _ = try AuditService.filter(fix: nil, action: "fix.explode", principal: nil, since: "yesterday", until: "2026-13-01")
            Issue.record("a bad filter was accepted")
        } catch let failure as ValidationFailure {
            #expect(failure.errors.map(\.field) == ["action", "since", "until"])
            #expect(failure.errors[0].message.contains("allowed: fix.create"))
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(throws: ValidationFailure.self) { try AuditService.filter(fix: nil, action: nil, principal: nil, since: "2026-12-05", until: "2026-12-04T00:00:00Z") }
        #expect(throws: ValidationFailure.self) { try AuditService.filter(fix: nil, action: "", principal: nil, since: nil, until: nil) }
    }

    @Test func onlyThoseWhoReadEverythingReadTheLog() throws {
        let world = try ServiceWorld()
        let ana = try world.tester("ana")
        #expect(throws: AccessDenied.self) { try world.services.audit.events(matching: AuditFilter(), after: nil, limit: 10, for: ana) }
        let sdk = try world.staff("tv-app", .sdk)
        #expect(throws: AccessDenied.self) { try world.services.audit.events(matching: AuditFilter(), after: nil, limit: 10, for: sdk) }
        let maintainer = try world.staff("mo", .maintainer)
        #expect(try world.services.audit.events(matching: AuditFilter(action: .testerCreate), after: nil, limit: 10, for: maintainer).count == 1)
    }

    @Test func criteriaAreSetByThoseWhoDecideReleasesAndAudited() throws {
        let world = try ServiceWorld()
        let author = try world.staff("mo", .maintainer)
        let fix = try world.fixInTesting(by: author, enrolling: [])
        let overrides = CriteriaOverrides(minTestersPassed: 3, approvalsRequired: 2)
        #expect(throws: AccessDenied.self) { try world.services.fixes.setCriteria(of: fix.key.rawValue, to: overrides, by: author) }
        let rita = try world.staff("rita", .releaseManager)
        #expect(try world.services.fixes.setCriteria(of: fix.key.rawValue, to: overrides, by: rita).criteria == overrides)
        let refused = [FieldError(field: "approvals_required", message: "must be from 1 to 100")]
        #expect(throws: ValidationFailure(refused)) { try world.services.fixes.setCriteria(of: fix.key.rawValue, to: CriteriaOverrides(), readErrors: refused, by: rita) }
        #expect(try world.store.fix(fix.key.rawValue)?.criteria == overrides, "a refused change keeps the criteria")
        #expect(try world.services.audit.events(matching: AuditFilter(action: .fixCriteria), after: nil, limit: 10, for: rita).map(\.principal) == ["rita"])
    }
}
