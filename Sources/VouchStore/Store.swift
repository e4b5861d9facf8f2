import Foundation
import VouchDomain

/// Everything `vouchd` keeps, behind one interface so another backend (PostgreSQL) can be added later.
///
/// Every mutation writes its audit event in the same transaction and has committed durably when the call returns.
public protocol Store: Sendable {
    func createFix(_ fix: Fix, by principal: String) throws -> Fix
    func fix(_ key: String) throws -> Fix?
    /// Fixes ordered by key, after the given key, at most `limit`.
    func fixes(state: FixState?, after key: String?, limit: Int) throws -> [Fix]
    /// Reads the fix, applies `change` inside the write transaction, stores and audits the result.
    func updateFix(_ key: String, action: String, by principal: String, note: String?, _ change: (Fix) throws -> Fix) throws -> FixChange

    func targets(of key: String) throws -> [String]
    func changeTargets(of key: String, adding: [String], removing: [String], by principal: String, at time: Date) throws -> TargetChange

    /// Every fix's evaluation rule, for building the OFREP snapshot at start.
    func flagRules() throws -> [FlagRule]

    func createToken(_ token: TokenRecord) throws
    func tokens(after id: String?, limit: Int) throws -> [TokenRecord]
    func activeTokens() throws -> [TokenRecord]
    func revokeToken(_ id: String, by principal: String, at time: Date) throws -> TokenRecord
    func tokenCount() throws -> Int

    func auditEvents(fix key: String?, after id: Int64?, limit: Int) throws -> [AuditEvent]
}

/// A fix before and after a change, and the evaluation rule to swap into the snapshot.
public struct FixChange: Sendable {
    public var before: Fix
    public var after: Fix
    public var rule: FlagRule
}

/// A fix's direct targets after a change, and the evaluation rule to swap into the snapshot.
public struct TargetChange: Sendable {
    public var targets: [String]
    public var added: [String]
    public var removed: [String]
    public var rule: FlagRule
}

/// What the store refuses, in words a client can act on.
public enum StoreError: Error, Sendable, Equatable {
    case notFound(kind: String, id: String)
    case alreadyExists(kind: String, id: String)
}
