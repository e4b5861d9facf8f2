import Foundation
import Testing
import VouchDomain
import VouchIdentity
@testable import VouchStore

/// What migration 0019 (PostgreSQL 0011) adds, on each database: a token's push choice and a webhook's format and
/// token file name, kept, read back, handed to the delivery worker and audited without secrets.
struct StoreReceiverTests {
    let time = StoreFixtures.time

    @Test(arguments: StoreBackend.allCases)
    func aTokenWithoutEventStreamsIsKeptSo(backend: StoreBackend) throws {
        try backend.withStore { store in
            var quiet = StoreFixtures.token("tok_android", hash: Array(repeating: UInt8(3), count: 32))
            quiet.eventStreams = false
            try store.createToken(quiet, principal: (try PrincipalName("android-app", field: "name"), "name"), by: "admin")
            try store.createToken(StoreFixtures.token("tok_web"), principal: (try PrincipalName("web-app", field: "name"), "name"), by: "admin")
            let active = try store.activeTokens()
            #expect(active.first { $0.id == "tok_android" } == quiet)
            #expect(active.first { $0.id == "tok_android" }?.principal.eventStreams == false)
            #expect(active.first { $0.id == "tok_web" }?.eventStreams == true)
            let audited = try store.auditEvents(fix: nil, after: nil, limit: 10).compactMap(\.after)
            #expect(audited.contains { $0.contains(#""event_streams":false"#) })
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aWebhooksFormatAndTokenFileAreKeptAndReachTheWorker(backend: StoreBackend) throws {
        try backend.withStore { store in
            var dispatch = StoreFixtures.endpoint("we_github", required: false)
            dispatch.url = "https://api.github.com/repos/example/app/dispatches"
            dispatch.format = .githubDispatch
            dispatch.tokenFile = "github-deploy.token"
            try store.createEndpoint(dispatch, by: "admin")
            try store.createEndpoint(StoreFixtures.endpoint("we_plain", required: false), by: "admin")
            #expect(try store.endpoint("we_github") == dispatch)
            #expect(try store.endpoint("we_plain")?.format == .standard)
            #expect(try store.endpoint("we_plain")?.tokenFile == nil)

            _ = try store.enqueue([StoreFixtures.event("msg_one")], onlyTo: nil, by: "admin")
            let jobs = try store.claimDeliveries(at: time.addingTimeInterval(60), by: "node", leaseUntil: time.addingTimeInterval(90), excluding: [], limit: 10)
            let github = try #require(jobs.first { $0.delivery.endpointID == "we_github" })
            #expect(github.format == .githubDispatch && github.tokenFile == "github-deploy.token")
            #expect(jobs.first { $0.delivery.endpointID == "we_plain" }?.format == .standard)

            let changed = try store.updateEndpoint("we_github", by: "admin") { endpoint in
                var next = endpoint
                next.format = .slack
                next.tokenFile = nil
                return next
            }
            #expect(try store.endpoint("we_github") == changed)
            let audited = try store.auditEvents(fix: nil, after: nil, limit: 10).compactMap(\.after).joined()
            #expect(audited.contains(#""format":"github-dispatch""#) && audited.contains(#""token_file":"github-deploy.token""#))
            #expect(audited.contains(#""format":"slack""#))
        }
    }
}
