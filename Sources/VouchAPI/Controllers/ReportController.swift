import VouchDomain
import VouchHTTP
import VouchServerKit
import VouchServices

/// `/v1/reports/acr`: an OpenACR report of the fixes named, or of those released in a period (docs/evidence.md).
struct ReportController {
    let evidence: EvidenceService

    package func register(in router: inout APIRouter) {
        router.add("GET", "/v1/reports/acr", .readAll, acr)
    }

    func acr(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let format = request.query["format"] ?? "openacr"
        let formatErrors = ["openacr", "markdown"].contains(format) ? []
            : [FieldError(field: "format", message: "must be openacr (OpenACR YAML) or markdown, got '\(format)'")]
        let scope = try evidence.reportScope(request.query, errors: formatErrors)
        let report = try evidence.openACR(scope, for: context.principal)
        if format == "markdown" { return .text(OpenACRMarkdown.string(report), contentType: "text/markdown; charset=utf-8") }
        return .text(YAMLWriter.string(report), contentType: "application/yaml; charset=utf-8")
    }
}
