/// The ids a form field's parts carry, so labels, hints, errors and the error summary always point at each other.
public enum FieldID {
    /// The control itself (for radios and checkboxes, the first one), which the error summary links to.
    public static func control(_ field: String) -> String { "field-" + slug(field) }
    /// The `index`th radio or checkbox of a group (0 is `control`).
    public static func option(_ field: String, _ index: Int) -> String { index == 0 ? control(field) : control(field) + "-\(index + 1)" }
    public static func hint(_ field: String) -> String { control(field) + "-hint" }
    public static func error(_ field: String) -> String { control(field) + "-error" }

    /// Letters, digits and hyphens only: API field names carry dots and brackets (`assistive_tech[0].version`).
    static func slug(_ field: String) -> String {
        String(field.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" })
    }
}
