import Foundation
import VouchDomain
import VouchIdentity

/// API tokens: created, listed, revoked, and read at start into the token directory.
public protocol TokenStore: Sendable {
    func createToken(_ token: TokenRecord, principal: (name: PrincipalName, field: String)?, by requester: Requester) throws
    /// Creates the token only when the database has no token at all (the first admin token, which several vouchd
    /// starting together on one database may each try to make); returns whether it did.
    func createFirstToken(_ token: TokenRecord, principal: (name: PrincipalName, field: String)?) throws -> Bool
    func tokens(after id: String?, limit: Int) throws -> [TokenRecord]
    func activeTokens() throws -> [TokenRecord]
    /// The SHA-256 of every revoked token's secret, so a revoked token is told apart from a guess.
    func revokedTokenHashes() throws -> [[UInt8]]
    func revokeToken(_ id: String, by principal: Requester, at time: Date) throws -> TokenRecord
    func tokenCount() throws -> Int
}
