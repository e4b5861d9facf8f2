import Foundation
import VouchCodec
import VouchJSON
import VouchServices
import VouchStore

extension TesterExport {
    /// Everything kept about a tester, as her export file holds it: the API's export and the console's "my data"
    /// download are the same file.
    public func jsonValue(exportedAt time: Date) -> JSONValue {
        .object([
            "tester": tester.jsonValue,
            "enrollments": .array(enrollments.map {
                .object(["fix": .string($0.fixKey), "enrolled_by": .string($0.enrolledBy), "enrolled_at": .string(Timestamp.string($0.enrolledAt))])
            }),
            "panels": .array(panels.map {
                .object(["id": .string($0.panelID), "name": .string($0.name), "added_by": .string($0.addedBy), "added_at": .string(Timestamp.string($0.addedAt))])
            }),
            "feedback": .array(feedback.map(\.jsonValue)),
            // The same records as W3C EARL assertions, as auditors receive them (docs/evidence.md).
            "evidence": EARLDocument.make(feedback: feedback, fixes: fixes),
            "tokens": .array(tokens.map { .object($0.jsonObject) }),
            "exported_at": .string(Timestamp.string(time)),
        ])
    }
}
