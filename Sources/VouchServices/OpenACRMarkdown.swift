import VouchDomain
import VouchJSON

/// An OpenACR report (as `EvidenceService.openACR` makes it) as Markdown for people: the VPAT's headings and one table
/// per WCAG level, each with a caption line, a header row, and a row per criterion and component (docs/evidence.md).
public enum OpenACRMarkdown {
    static let tables = [("success_criteria_level_a", "Table 1: Success Criteria, Level A"), ("success_criteria_level_aa", "Table 2: Success Criteria, Level AA"),
                         ("success_criteria_level_aaa", "Table 3: Success Criteria, Level AAA")]
    static let chapters = [("en_301_549_web", "EN 301 549 Chapter 9: Web"), ("en_301_549_software", "EN 301 549 Chapter 11: Software")]
    static let levels = ["supports": "Supports", "partially-supports": "Partially Supports", "does-not-support": "Does Not Support",
                         "not-evaluated": "Not Evaluated"]
    static let components = ["software": "Software", "web": "Web"]

    public static func string(_ report: JSONValue) -> String {
        func text(_ value: JSONValue?) -> String { escaped(value?.stringValue ?? "") }
        var lines = ["# \(text(report["title"]))", ""]
        var product = "- Product: \(text(report["product"]?["name"]))"
        if let version = report["product"]?["version"]?.stringValue { product += ", version \(escaped(version))" }
        lines += [product, "- Description: \(text(report["product"]?["description"]))",
                  "- Author: \(text(report["author"]?["name"])), \(text(report["author"]?["email"]))",
                  "- Report date: \(text(report["report_date"]))", "- Catalog: \(text(report["catalog"]))", "",
                  "## Notes", "", text(report["notes"]), "", "## Evaluation methods used", "", text(report["evaluation_methods_used"]), ""]
        for (id, title) in tables {
            lines += ["## \(title)", "", "| Criteria | Component | Conformance Level | Remarks and Explanations |", "| --- | --- | --- | --- |"]
            for criterion in report["chapters"]?[id]?["criteria"]?.arrayValue ?? [] {
                let number = criterion["num"]?.stringValue ?? ""
                let name = WCAGCatalog.criteria.first { $0.number == number }.map { "\(number) \($0.name)" } ?? number
                for component in criterion["components"]?.arrayValue ?? [] {
                    let componentName = component["name"]?.stringValue ?? ""
                    let level = component["adherence"]?["level"]?.stringValue ?? ""
                    lines.append("| \(escaped(name)) | \(components[componentName] ?? escaped(componentName)) | \(levels[level] ?? escaped(level)) | \(text(component["adherence"]?["notes"])) |")
                }
            }
            lines.append("")
        }
        for (id, title) in chapters {
            guard let notes = report["chapters"]?[id]?["notes"]?.stringValue else { continue }
            lines += ["## \(title)", "", escaped(notes), ""]
        }
        return lines.joined(separator: "\n")
    }

    /// Text that Markdown shows as it is: its punctuation escaped, line breaks as spaces, so a cell stays one cell.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if "\\`*_{}[]<>()#+-!|~".contains(character) { out.append("\\") }
            out.append(character.isNewline ? " " : character)
        }
        return out
    }
}
