import Foundation
import VouchDomain

/// What the store refuses, in words a client can act on.
public enum StoreError: Error, Sendable, Equatable {
    case notFound(kind: String, id: String)
    case alreadyExists(kind: String, id: String)
}

/// A decision refused because of who asks, not the fix's state: an author of the revision may not approve it (403).
public struct DecisionRefused: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// Why a submission or enrollment was refused by state, worded for the client (409).
public struct StoreConflict: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// Stored data this binary cannot read (a damaged or foreign database, or one written by a newer vouchd), or a
/// statement that returned nothing where the schema guarantees a row.
public struct StoreDataError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
