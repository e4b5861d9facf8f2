import VouchConsoleKit
import VouchDomain

/// The criteria report as `vouch status` says it: each criterion met or not, in words and numbers, with its details;
/// then whether the fix is ready to promote and what is still missing, or what became of its promotion.
struct CriteriaSection {
    let report: CriteriaReport

    func render() -> HTML {
        let metCount = report.criteria.filter(\.met).count
        let rows = report.criteria.map { criterion -> SummaryList.Row in
            let tag = criterion.met ? StatusTag("Met", tone: .good) : StatusTag("Not met", tone: .bad)
            // The approvals' details are the approvals themselves, shown once below with their standing.
            let details = criterion.name == "approvals_required" ? [] : criterion.details
            let detailList: HTML = details.isEmpty ? .empty
                : "<ul class=\"list\">\(details.map { detail -> HTML in "<li>\(Words.prose(detail))</li>" })</ul>"
            let missing: HTML = criterion.missing.map { "<p class=\"body\">Still needed: \(Words.prose($0)).</p>" } ?? .empty
            return SummaryList.Row(ReviewWords.criterion(criterion.name), """
            <p class="body">\(tag.render()) \(ReviewWords.sentence(Words.prose(criterion.summary)))</p>
            \(detailList)\(missing)
            """)
        }
        return """
        <h2 class="heading-m">Promotion criteria</h2>
        <p class="body">Criteria met: \(metCount) of \(report.criteria.count), for revision \(report.revision).</p>
        \(overall)
        \(SummaryList(rows).render())
        """
    }

    private var overall: HTML {
        if let promotion = report.promotion {
            return "<p class=\"body\">Promotion: \(Words.prose(promotion)).</p>"
        }
        if report.readyToPromote {
            return "<p class=\"body\">\(StatusTag("Ready to promote", tone: .good).render()) Every criterion is met: Vouch promotes the fix on its own.</p>"
        }
        let missing = report.missing.map { item -> HTML in "<li>\(Words.prose(item))</li>" }
        return """
        <p class="body">\(StatusTag("Not ready", tone: .bad).render()) Still missing before the fix can be promoted:</p>
        <ul class="list">\(missing)</ul>
        """
    }
}
