import Foundation
import VouchDomain
import VouchStore

extension EvidenceService {
    /// The most fixes one report names by key.
    public static let maxReportFixes = 500

    /// What a report's query asks for (`fixes`, or `released_from` and `released_to`; `product_name`,
    /// `product_version`), or every field it gets wrong with those already `found`: the API and the console's report
    /// page read the same words the same way. Without `product_name` the report is of `report.product_name`.
    public func reportScope(_ query: [String: String], errors found: [FieldError] = []) throws -> ReportScope {
        var errors = found
        let fixes = query["fixes"].map { $0.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) } } ?? []
        if query["fixes"] != nil {
            if !(1...EvidenceService.maxReportFixes).contains(fixes.count) || fixes.contains(where: \.isEmpty) {
                errors.append(FieldError(field: "fixes", message: "must be 1 to \(EvidenceService.maxReportFixes) fix keys separated by commas, such as tv-channel-selector-labels,epg-grid-focus-order"))
            }
        }
        let from = EvidenceService.day(query["released_from"], field: "released_from", errors: &errors)
        let to = EvidenceService.day(query["released_to"], field: "released_to", errors: &errors).map { $0.addingTimeInterval(86_400) }
        let namesPeriod = query["released_from"] != nil || query["released_to"] != nil
        if query["fixes"] != nil && namesPeriod {
            errors.append(FieldError(field: "fixes", message: "give either fixes or a period (released_from, released_to), not both"))
        } else if query["fixes"] == nil && !namesPeriod {
            errors.append(FieldError(field: "fixes", message: "is required unless a period is given: fix keys separated by commas, or released_from and released_to"))
        }
        if let from, let to, to <= from { errors.append(FieldError(field: "released_to", message: "must be on or after released_from")) }
        let given = query["product_name"] ?? defaultProductName
        let product = given.trimmingCharacters(in: .whitespacesAndNewlines)
        if product.isEmpty || given.unicodeScalars.count > 200 {
            errors.append(FieldError(field: "product_name", message: "is required: the product's name as the report shows it, 1 to 200 characters, "
                                     + "unless report.product_name is set in vouchd's configuration"))
        }
        let version = query["product_version"]
        if let version, version.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty || version.unicodeScalars.count > 64 {
            errors.append(FieldError(field: "product_version", message: "must be 1 to 64 characters, such as 5.4.1"))
        }
        if !errors.isEmpty { throw ValidationFailure(errors) }
        return ReportScope(fixes: fixes, releasedFrom: from, releasedTo: to, productName: product, productVersion: version)
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
