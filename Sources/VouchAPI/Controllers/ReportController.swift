import Foundation
import VouchDomain
import VouchHTTP
import VouchServerKit
import VouchServices

/// `/v1/reports/acr`: an OpenACR report of the fixes named, or of those released in a period (docs/evidence.md).
struct ReportController {
    let evidence: EvidenceService

    /// The most fixes one report names by key.
    static let maxFixes = 500

    package func register(in router: inout APIRouter) {
        router.add("GET", "/v1/reports/acr", .readAll, acr)
    }

    func acr(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let format = request.query["format"] ?? "openacr"
        let formatErrors = ["openacr", "markdown"].contains(format) ? []
            : [FieldError(field: "format", message: "must be openacr (OpenACR YAML) or markdown, got '\(format)'")]
        let scope = try ReportController.scope(request.query, errors: formatErrors)
        let report = try evidence.openACR(scope, for: context.principal)
        if format == "markdown" { return .text(OpenACRMarkdown.string(report), contentType: "text/markdown; charset=utf-8") }
        return .text(YAMLWriter.string(report), contentType: "application/yaml; charset=utf-8")
    }

    /// What the query asks for, or every field it gets wrong, with those already `found`.
    static func scope(_ query: [String: String], errors found: [FieldError] = []) throws -> EvidenceService.ReportScope {
        var errors = found
        let fixes = query["fixes"].map { $0.split(separator: ",", omittingEmptySubsequences: false).map { String($0) } } ?? []
        if query["fixes"] != nil {
            if !(1...maxFixes).contains(fixes.count) || fixes.contains(where: \.isEmpty) {
                errors.append(FieldError(field: "fixes", message: "must be 1 to \(maxFixes) fix keys separated by commas, such as tv-channel-selector-labels,epg-grid-focus-order"))
            }
        }
        let from = day(query["released_from"], field: "released_from", errors: &errors)
        let to = day(query["released_to"], field: "released_to", errors: &errors).map { $0.addingTimeInterval(86_400) }
        let namesPeriod = query["released_from"] != nil || query["released_to"] != nil
        if query["fixes"] != nil && namesPeriod {
            errors.append(FieldError(field: "fixes", message: "give either fixes or a period (released_from, released_to), not both"))
        } else if query["fixes"] == nil && !namesPeriod {
            errors.append(FieldError(field: "fixes", message: "is required unless a period is given: fix keys separated by commas, or released_from and released_to"))
        }
        if let from, let to, to <= from { errors.append(FieldError(field: "released_to", message: "must be on or after released_from")) }
        let given = query["product_name"] ?? ""
        let product = given.trimmingCharacters(in: .whitespacesAndNewlines)
        if product.isEmpty || given.unicodeScalars.count > 200 {
            errors.append(FieldError(field: "product_name", message: "is required: the product's name as the report shows it, 1 to 200 characters"))
        }
        let version = query["product_version"]
        if let version, version.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || version.unicodeScalars.count > 64 {
            errors.append(FieldError(field: "product_version", message: "must be 1 to 64 characters, such as 5.4.1"))
        }
        if !errors.isEmpty { throw ValidationFailure(errors) }
        return EvidenceService.ReportScope(fixes: fixes, releasedFrom: from, releasedTo: to, productName: product, productVersion: version)
    }

    /// A day in UTC, `2026-12-01`.
    static func day(_ text: String?, field: String, errors: inout [FieldError]) -> Date? {
        guard let text else { return nil }
        let characters = Array(text)
        let shaped = characters.count == 10 && characters.indices.allSatisfy { [4, 7].contains($0) ? characters[$0] == "-" : characters[$0].isASCII && characters[$0].isNumber }
        if shaped, let year = Int(text.prefix(4)), let month = Int(text.dropFirst(5).prefix(2)), let day = Int(text.suffix(2)) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = .gmt
            let components = DateComponents(calendar: calendar, timeZone: .gmt, year: year, month: month, day: day)
            if components.isValidDate, let date = components.date { return date }
        }
        errors.append(FieldError(field: field, message: "must be a day as YYYY-MM-DD in UTC, such as 2026-12-01, got '\(text)'"))
        return nil
    }
}
