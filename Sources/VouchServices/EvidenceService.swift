import Foundation
import VouchDomain
import VouchJSON
import VouchStore

/// The evidence Vouch holds, in the formats auditors and buyers read (docs/evidence.md): W3C EARL per fix. Read by
/// the roles that may read everything, and OpenACR per release; the documents carry pseudonyms only.
public struct EvidenceService: Sendable {
    let store: any FeedbackStore & FixStore & AuditStore
    /// The report's author.
    let programmeOperator: ProgrammeOperator
    /// The product a report speaks for when its request names none (`report.product_name`; empty: none).
    public let defaultProductName: String
    let clock: @Sendable () -> Date

    /// Records read from the store at a time while a document is built.
    static let pageSize = 1_000

    public init(store: any FeedbackStore & FixStore & AuditStore, programmeOperator: ProgrammeOperator, defaultProductName: String = "",
                clock: @escaping @Sendable () -> Date) {
        self.store = store
        self.programmeOperator = programmeOperator
        self.defaultProductName = defaultProductName
        self.clock = clock
    }

    /// Whether a report of fixes named by key can be made as asked, without more words: vouchd names its author and
    /// its product (`operator.*`, `report.product_name`). A fix's console page links to its report only then.
    public var reportsWithoutAsking: Bool { programmeOperator.isConfigured && !defaultProductName.isEmpty }

    /// Every feedback record on one revision of the fix (its current one unless `revision` names another) as EARL
    /// assertions in JSON-LD.
    public func earl(of key: String, revision: Int?, for principal: Principal) throws -> JSONValue {
        try AccessDenied.unless(principal, may: .readAll)
        guard let fix = try store.fix(key) else { throw StoreError.notFound(kind: "fix", id: key) }
        let revision = revision ?? fix.revision
        guard (1...fix.revision).contains(revision) else {
            throw FieldError(field: "revision", message: "must be a revision of fix \(key), 1 to \(fix.revision), got \(revision)")
        }
        return EARLDocument.make(fix: fix, revision: revision, feedback: try feedback(of: key, revision: revision))
    }

    func feedback(of key: String, revision: Int) throws -> [Feedback] {
        var records: [Feedback] = []
        var after: Int64?
        while true {
            let page = try store.feedback(of: key, tester: nil, revision: revision, after: after, limit: EvidenceService.pageSize)
            records += page.map(\.feedback)
            guard page.count == EvidenceService.pageSize, let last = page.last else { return records }
            after = last.seq
        }
    }
}
