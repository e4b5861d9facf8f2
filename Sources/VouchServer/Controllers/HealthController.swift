import VouchHTTP
import VouchJSON
import VouchStore

/// `/healthz` (the process answers), `/readyz` (the database answers), `/metrics`, `/v1/openapi.json`; no token needed.
struct HealthController {
    let store: any Store
    let snapshots: SnapshotHolder
    let metrics: Metrics

    func register(in router: inout APIRouter) {
        router.addPublic("GET", "/healthz") { _, _ in .json(.object(["status": .string("ok")])) }
        router.addPublic("GET", "/readyz") { _, _ in
            do {
                _ = try store.tokenCount()
                return .json(.object(["status": .string("ready")]))
            } catch {
                return Problem(status: 503, detail: "the database does not answer").response
            }
        }
        router.addPublic("GET", "/metrics") { _, _ in
            let snapshot = snapshots.snapshot
            return .text(metrics.text(snapshot: EvaluationSnapshotSummary(generation: snapshot.generation, fixCount: snapshot.rules.count)),
                         contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
        router.addPublic("GET", "/v1/openapi.json") { _, _ in
            HTTPResponse(status: 200, headers: [(name: "Content-Type", value: "application/json")], body: Array(OpenAPIDocument.json.utf8))
        }
    }
}
