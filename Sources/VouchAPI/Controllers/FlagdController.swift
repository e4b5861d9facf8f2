import Foundation
import VouchCodec
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchServerKit

/// `GET /flagd/v1/flags.json`: every fix as a flagd flag definition, for flagd's HTTP sync (docs/flagd.md), from
/// the same in-memory snapshot OFREP answers from, so a change is served as soon as OFREP answers it.
package struct FlagdController {
    let snapshots: SnapshotHolder

    package init(snapshots: SnapshotHolder) {
        self.snapshots = snapshots
    }

    package static let path = "/flagd/v1/flags.json"

    package func register(in router: inout APIRouter) {
        router.add("GET", FlagdController.path, .readFlagDefinitions, definitions)
    }

    /// The ETag fingerprints the exact bytes, as OFREP's bulk answer does; flags that did not change keep it.
    func definitions(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let snapshot = snapshots.withSnapshot { $0 }
        var body = JSONWriter.bytes(FlagdDefinitions.document(rules: snapshot.rules.values), pretty: true)
        body.append(UInt8(ascii: "\n"))
        let etag = "\"" + ETag.fingerprint(body) + "\""
        let revision = (name: "Vouch-Configuration-Revision", value: String(snapshot.revision))
        if let match = request.header("if-none-match"), ETag.matches(match, etag) {
            return .empty(304, headers: [(name: "ETag", value: etag), revision])
        }
        return HTTPResponse(status: 200, headers: [(name: "Content-Type", value: "application/json"), (name: "ETag", value: etag), revision],
                            body: body)
    }
}
