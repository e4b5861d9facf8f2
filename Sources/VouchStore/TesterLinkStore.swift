import Foundation

/// Testers' personal console links: created for an active tester, listed, found by the SHA-256 of the secret,
/// revoked (which ends the sessions the link opened). Withdrawal deletes them.
public protocol TesterLinkStore: Sendable {
    func createTesterLink(_ link: TesterLink, by requester: Requester) throws
    func testerLinks(of testerID: String) throws -> [TesterLink]
    func testerLink(secretSHA256: [UInt8]) throws -> TesterLink?
    func revokeTesterLink(_ id: String, of testerID: String, by principal: Requester, at time: Date) throws -> TesterLink
}
