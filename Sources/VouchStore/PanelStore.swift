import Foundation
import VouchDomain

/// Panels of testers and who is in them (docs/invitations.md, "Panels").
public protocol PanelStore: Sendable {
    /// Stores a new panel, with no members; refused with `StoreConflict` when another has its name, whatever the case.
    func createPanel(_ panel: Panel, by requester: Requester) throws
    /// Every panel with its members, by name.
    func panels() throws -> [Panel]
    func panel(_ id: String) throws -> Panel?
    /// Deletes the panel; its members stay testers, and the fixes they were enrolled in through it keep them.
    func deletePanel(_ id: String, by requester: Requester, at time: Date) throws -> Panel
    /// Adds the testers not in the panel yet; refused with a `FieldError` per tester that does not exist or withdrew.
    func addPanelMembers(_ testerIDs: [String], to id: String, by requester: Requester, at time: Date) throws -> PanelChange
    func removePanelMember(_ testerID: String, from id: String, by requester: Requester, at time: Date) throws -> PanelChange
}

/// A panel after a change of its members.
public struct PanelChange: Sendable, Equatable {
    public var panel: Panel
    public var added: [String]
    public var removed: [String]
}
