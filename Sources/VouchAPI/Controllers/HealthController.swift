import VouchHTTP
import VouchJSON
import VouchServerKit
import VouchStore

/// `/healthz` (the process answers), `/readyz` (started, not stopping, and the database answers), `/metrics`,
/// `/v1/openapi.json`; no token needed.
package struct HealthController {
    let store: any Store
    let snapshots: SnapshotHolder
    let metrics: Metrics
    let readiness: Readiness

    package init(store: any Store, snapshots: SnapshotHolder, metrics: Metrics, readiness: Readiness) {
        self.store = store
        self.snapshots = snapshots
        self.metrics = metrics
        self.readiness = readiness
    }

    package func register(in router: inout APIRouter) {
        router.addPublic("GET", "/healthz") { _, _ in .json(.object(["status": .string("ok")])) }
        router.addPublic("GET", "/readyz") { _, _ in
            switch readiness.phase {
            case .starting:
                return Problem(status: 503, detail: "vouchd is starting", headers: [(name: "Retry-After", value: "1")]).response
            case .stopping:
                return Problem(status: 503, detail: "vouchd is shutting down").response
            case .ready:
                do {
                    _ = try store.tokenCount()
                    return .json(.object(["status": .string("ready")]))
                } catch {
                    return Problem(status: 503, detail: "the database does not answer", headers: [(name: "Retry-After", value: "1")]).response
                }
            }
        }
        router.addPublic("GET", "/metrics") { _, _ in
            // Counts from the database are left out, not guessed, when it does not answer.
            let counts = try? store.operationalCounts()
            let snapshot = snapshots.snapshot
            return .text(metrics.text(snapshotGeneration: snapshot.generation, configurationRevision: snapshot.revision, counts: counts),
                         contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
        router.addPublic("GET", "/v1/openapi.json") { _, _ in
            HTTPResponse(status: 200, headers: [(name: "Content-Type", value: "application/json")], body: Array(OpenAPIDocument.json.utf8))
        }
    }
}
