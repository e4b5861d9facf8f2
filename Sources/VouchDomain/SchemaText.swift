/// Free text checked as the OpenAPI document's schemas check it, so that the server refuses whatever the document
/// refuses (docs/contracts.md, "Errors"): lengths in code points, as JSON Schema's `maxLength` counts them; "not
/// blank" as the patterns' ECMAScript `\s` means it; control characters anywhere in what was sent, before any
/// trimming, since a trailing carriage return is as much a control character as one inside.
public enum SchemaText {
    /// ECMAScript's `\s`, which the document's patterns use: whitespace, line terminators and the byte order mark.
    public static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: true
        default: false
        }
    }

    /// Whether the text holds nothing but `\s`: what the patterns of required text refuse.
    public static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy(isSpace)
    }

    /// The length JSON Schema gives the text: its code points.
    public static func length(_ text: String) -> Int {
        text.unicodeScalars.count
    }

    /// What is wrong with a text field's value as sent, worded for `FieldError.message`; nil when nothing is.
    /// - Parameters:
    ///   - limit: the most code points allowed (the schema's `maxLength`).
    ///   - required: whether the value must hold something other than spaces.
    ///   - lineBreaks: whether line feeds and tabs are allowed (free text such as a comment).
    public static func problem(_ value: String, limit: Int, required: Bool, lineBreaks: Bool) -> String? {
        if required && isBlank(value) { return "must not be empty" }
        let length = length(value)
        if length > limit { return "must be at most \(limit) characters, got \(length)" }
        if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && !(lineBreaks && ($0 == "\n" || $0 == "\t")) }) {
            return lineBreaks ? "must not contain control characters other than line breaks and tabs" : "must not contain control characters"
        }
        return nil
    }
}
