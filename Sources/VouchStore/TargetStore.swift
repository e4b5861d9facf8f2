import Foundation
import VouchDomain

/// The targeting keys a fix is enabled for.
public protocol TargetStore: Sendable {
    func targets(of key: String) throws -> [String]
    func changeTargets(of key: String, adding: [String], removing: [String], by principal: Requester, at time: Date) throws -> TargetChange
}
