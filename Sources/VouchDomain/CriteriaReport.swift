/// Every criterion of one fix, met or not, in words and numbers, and what is still missing.
public struct CriteriaReport: Sendable, Equatable {
    public struct Criterion: Sendable, Equatable {
        /// The configuration name (`min_testers_passed`).
        public var name: String
        public var met: Bool
        /// The state of things in words and numbers ("1 of 2 passing testers").
        public var summary: String
        /// Detail lines, such as one per required assistive technology.
        public var details: [String]
        /// What would make it met; nil when met.
        public var missing: String?
    }

    public struct ApprovalEntry: Sendable, Equatable {
        public var approval: Approval
        public var standing: ApprovalStanding

        public init(approval: Approval, standing: ApprovalStanding) {
            self.approval = approval
            self.standing = standing
        }
    }

    public var fixKey: String
    public var revision: Int
    public var state: FixState
    public var criteria: [Criterion]
    public var approvals: [ApprovalEntry]
    /// The evidence fingerprint an approval given now would be bound to.
    public var evidenceHash: String
    /// What became of the promotion once the criteria no longer decide, such as "released to everyone"; nil while testing.
    public var promotion: String?

    /// Every criterion met, approvals included.
    public var allMet: Bool { criteria.allSatisfy(\.met) }

    /// What is still missing, one line per unmet criterion.
    public var missing: [String] { criteria.compactMap(\.missing) }

    /// Criteria met and the fix in testing: the daemon promotes it.
    public var readyToPromote: Bool { allMet && state == .testing }
    /// Every criterion but the approvals is met: the fix waits for a release manager's decision.
    public var awaitsDecision: Bool {
        state == .testing && !allMet && criteria.allSatisfy { $0.met || $0.name == "approvals_required" }
    }
}
