/// Paging limits shared by every list route.
public enum Paging {
    public static let defaultLimit = 50
    public static let maxLimit = 500

    /// Parses the `limit` query value.
    public static func limit(from text: String?) throws(FieldError) -> Int {
        guard let text else { return defaultLimit }
        guard text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber), let value = Int(text), (1...maxLimit).contains(value) else {
            throw FieldError(field: "limit", message: "must be a whole number from 1 to \(maxLimit), got '\(text)'")
        }
        return value
    }
}
