import Foundation
import VouchDomain

/// One tester enrolled in one fix.
public struct Enrollment: Sendable, Equatable {
    public var testerID: String
    public var enrolledBy: String
    public var enrolledAt: Date
}
