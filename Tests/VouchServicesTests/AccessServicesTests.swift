import Foundation
import Testing
import VouchDomain
import VouchServices
import VouchStore

/// Tokens, personal links, targets and webhooks: the services an administrator or a maintainer uses around the fixes.
@Suite struct AccessServicesTests {
    @Test func onlyAnAdministratorIssuesTokens() throws {
        let world = try ServiceWorld()
        let maria = try world.staff("maria", .maintainer)
        #expect(throws: AccessDenied.self) { try world.services.tokens.create(name: "ci", role: "sdk", tester: nil, issuedTo: nil, by: maria) }
        let created = try world.services.tokens.create(name: "ci", role: "sdk", tester: nil, issuedTo: "Build-Bot", by: world.admin)
        #expect(created.token.principalName == "build-bot" && created.secret.hasPrefix("vch_") && created.token.createdBy == "admin")
        let failure = #expect(throws: ValidationFailure.self) {
            try world.services.tokens.create(name: "ana", role: "tester", tester: nil, issuedTo: nil, by: world.admin)
        }
        #expect(failure?.errors.map(\.field) == ["tester"])
    }

    @Test func aLinkNeedsAKnownAddressAndAValidityInRange() throws {
        let world = try ServiceWorld()
        let maria = try world.staff("maria", .maintainer)
        let ana = try world.tester("ana")
        let id = ana.testerID ?? ""
        #expect(throws: StoreConflict.self) { try world.services.links.create(for: id, validFor: nil, base: nil, by: maria) }
        let failure = #expect(throws: ValidationFailure.self) { try world.services.links.create(for: id, validFor: "1s", base: "https://vouch.example", by: maria) }
        #expect(failure?.errors.map(\.field) == ["valid_for"])
        let created = try world.services.links.create(for: id, validFor: "2h", base: "https://vouch.example", by: maria)
        #expect(created.url.hasPrefix("https://vouch.example/console/link/"))
        #expect(created.link.expiresAt == ServiceWorld.time.addingTimeInterval(7_200))
        #expect(throws: AccessDenied.self) { try world.services.links.links(of: id, for: ana) }
        #expect(try world.services.links.revoke(created.link.id, of: id, by: maria).revokedAt != nil)
    }

    @Test func everyBadTargetingKeyIsReportedByItsPlace() throws {
        let world = try ServiceWorld()
        let maria = try world.staff("maria", .maintainer)
        try world.fixInTesting(by: maria, enrolling: [])
        let failure = #expect(throws: ValidationFailure.self) {
            try world.services.targets.change(ServiceWorld.fixKey, adding: ["qa-iphone", ""], removing: ["a\u{7}"], by: maria)
        }
        #expect(failure?.errors.map(\.field) == ["add[1]", "remove[0]"])
        #expect(try world.services.targets.change(ServiceWorld.fixKey, adding: ["qa-iphone"], removing: [], by: maria).targets == ["qa-iphone"])
    }

    @Test func aWebhookAddressIsCheckedAndABusyCheckIsToBeTriedAgain() throws {
        let world = try ServiceWorld(checkWebhookAddress: { url in
            if url.contains("busy") { throw TryAgainSoon("the resolver is busy") }
            return url.contains("internal") ? "resolves to a private address" : nil
        })
        let hooks = world.services.webhooks
        #expect(throws: TryAgainSoon.self) { try hooks.create(.init(url: "https://busy.example/hook"), by: world.admin) }
        let failure = #expect(throws: ValidationFailure.self) { try hooks.create(.init(url: "https://internal.example/hook", events: ["fix.nope"]), by: world.admin) }
        #expect(failure?.errors.map(\.field) == ["url", "events[0]"])
        #expect(throws: AccessDenied.self) { try hooks.create(.init(url: "https://deploy.example/hook"), by: try world.staff("maria", .maintainer)) }
        let endpoint = try hooks.create(.init(url: "https://deploy.example/hook", events: ["fix.promoted"]), by: world.admin)
        #expect(endpoint.secret == "whsec_test" && endpoint.events == [.fixPromoted] && endpoint.enabled)
        #expect(try hooks.update(endpoint.id, with: .init(enabled: false), by: world.admin).enabled == false)
        #expect(throws: StoreConflict.self) { try hooks.sendTest(to: endpoint.id, by: world.admin) }
    }
}
