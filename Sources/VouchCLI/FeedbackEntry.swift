import VouchJSON

/// One feedback record being put together from options and answers, before it is sent.
struct FeedbackEntry {
    /// Text and enumerated fields by the API's name.
    var values: [String: String] = [:]
    /// Nil until given with `--regression` or answered; sent as false when nobody was asked.
    var regression: Bool?
    var wcag: [String]?

    init(invocation: Invocation) {
        for field in FeedbackFields.textFields + [FeedbackFields.comment] {
            if let value = invocation.value(field.option.name) { values[field.name] = value }
        }
        regression = invocation.flag("regression") ? true : nil
        wcag = invocation.list("wcag")
    }

    /// Required fields not given yet; on the web the browser is one of them.
    var missing: [FeedbackFields.Field] {
        var fields = FeedbackFields.required.filter { values[$0.name] == nil }
        if values["platform"] == "web", values["browser"] == nil { fields.append(FeedbackFields.browser) }
        return fields
    }

    /// The request body, in the API's field order, marked as coming through the CLI.
    var body: JSONValue {
        var object = JSONObject()
        for field in FeedbackFields.textFields {
            if let value = values[field.name] { object[field.name] = .string(value) }
        }
        object["regression"] = .bool(regression ?? false)
        if let wcag { object["wcag"] = .strings(wcag) }
        if let comment = values["comment"] { object["comment"] = .string(comment) }
        object["channel"] = .string("cli")
        return .object(object)
    }

    /// The read-back before sending: one "Label: value" line per field given, the value in words ("Verdict: can't tell").
    func readBack(fix: String) -> [String] {
        var lines = ["Fix: \(fix)"]
        for field in FeedbackFields.textFields {
            if let value = values[field.name] { lines.append("\(field.label): \(SpokenWords.say(value, ofField: field.name))") }
        }
        lines.append("Regression: \(regression.map { $0 ? "yes" : "no" } ?? "not asked")")
        if let wcag { lines.append("WCAG: \(OutputFormatter.wcag(.strings(wcag)))") }
        lines.append("Comment: \(values["comment"] ?? "none")")
        return lines
    }
}
