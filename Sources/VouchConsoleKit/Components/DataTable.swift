/// A table with a caption and column headers; the first cell of each row may head that row.
public struct DataTable: Sendable {
    public var caption: String
    public var columns: [String]
    public var rows: [[HTML]]
    public var firstColumnHeadsRows: Bool
    /// What to say instead of an empty table.
    public var emptyText: String

    public init(caption: String, columns: [String], rows: [[HTML]], firstColumnHeadsRows: Bool = true, emptyText: String) {
        self.caption = caption
        self.columns = columns
        self.rows = rows
        self.firstColumnHeadsRows = firstColumnHeadsRows
        self.emptyText = emptyText
    }

    public func render() -> HTML {
        if rows.isEmpty { return "<h2 class=\"heading-m\">\(caption)</h2><p class=\"body\">\(emptyText)</p>" }
        let head = columns.map { column -> HTML in "<th scope=\"col\">\(column)</th>" }
        let body = rows.map { cells -> HTML in
            let rendered = cells.enumerated().map { index, cell -> HTML in
                index == 0 && firstColumnHeadsRows ? "<th scope=\"row\">\(cell)</th>" : "<td>\(cell)</td>"
            }
            return "<tr>\(rendered)</tr>"
        }
        return """
        <table class="table">
        <caption class="table__caption">\(caption)</caption>
        <thead><tr>\(head)</tr></thead>
        <tbody>\(body)</tbody>
        </table>
        """
    }
}
