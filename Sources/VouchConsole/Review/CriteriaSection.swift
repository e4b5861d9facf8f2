import VouchConsoleKit
import VouchDomain

/// The criteria report as `vouch status` says it: each criterion met or not, in words and numbers, with its details;
/// then whether the fix is ready to promote and what is still missing, or what became of its promotion. The report's
/// own sentences are the evaluator's English, marked as English on a page in another language.
struct CriteriaSection {
    let report: CriteriaReport
    var messages: Messages = .english

    func render() -> HTML {
        let metCount = report.criteria.filter(\.met).count
        let rows = report.criteria.map { criterion -> SummaryList.Row in
            let tag = criterion.met ? StatusTag(messages[.criteriaMet], tone: .good) : StatusTag(messages[.criteriaNotMet], tone: .bad)
            // The approvals' details are the approvals themselves, shown once below with their standing.
            let details = criterion.name == "approvals_required" ? [] : criterion.details
            let detailList: HTML = details.isEmpty ? .empty
                : "<ul class=\"list\">\(details.map { detail -> HTML in "<li>\(messages.prose(detail))</li>" })</ul>"
            let missing: HTML = criterion.missing.map { "<p class=\"body\">\(messages.html(.criteriaStillNeeded, ["missing": messages.prose($0)]))</p>" } ?? .empty
            let summary = messages.authored(ReviewWords.sentence(Words.prose(criterion.summary)), language: Language.en.rawValue)
            return SummaryList.Row(ReviewWords.criterion(criterion.name, messages), """
            <p class="body">\(tag.render()) \(summary)</p>
            \(detailList)\(missing)
            """)
        }
        let counts = messages(.criteriaMetCount, ["met": messages.number(metCount), "total": messages.number(report.criteria.count),
                                                  "revision": messages.number(report.revision)])
        return """
        <h2 class="heading-m">\(messages[.criteriaTitle])</h2>
        <p class="body">\(counts)</p>
        \(overall)
        \(SummaryList(rows).render(messages))
        """
    }

    private var overall: HTML {
        if let promotion = report.promotion {
            return "<p class=\"body\">\(messages.html(.criteriaPromotion, ["promotion": messages.prose(promotion)]))</p>"
        }
        if report.readyToPromote {
            return "<p class=\"body\">\(StatusTag(messages[.criteriaReady], tone: .good).render()) \(messages[.criteriaReadyText])</p>"
        }
        let missing = report.missing.map { item -> HTML in "<li>\(messages.prose(item))</li>" }
        return """
        <p class="body">\(StatusTag(messages[.criteriaNotReady], tone: .bad).render()) \(messages[.criteriaNotReadyText])</p>
        <ul class="list">\(missing)</ul>
        """
    }
}
