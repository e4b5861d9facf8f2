import VouchDomain
import VouchJSON

/// Reads typed members out of a request object, collecting one `FieldError` per bad member.
///
/// Members never read are reported by `finish()` as unknown, so a typo is an error, not a silent no-op.
public struct JSONFieldReader {
    public private(set) var errors: [FieldError] = []
    private let object: JSONObject
    private let prefix: String
    private var known: Set<String> = []
    private var refused: Set<String> = []

    public init(object: JSONObject, prefix: String = "") {
        self.object = object
        self.prefix = prefix
    }

    private func name(_ field: String) -> String { prefix + field }

    public mutating func value(_ field: String) -> JSONValue? {
        known.insert(field)
        return object[field]
    }

    public mutating func string(_ field: String) -> String? {
        guard let value = value(field) else { return nil }
        guard case .string(let text) = value else {
            errors.append(FieldError(field: name(field), message: "must be a string, got \(value.typeName)"))
            return nil
        }
        return text
    }

    /// A string that may be explicitly null (to clear it): `.some(nil)` for null, nil when absent.
    public mutating func nullableString(_ field: String) -> String?? {
        guard let value = value(field) else { return nil }
        switch value {
        case .null: return .some(nil)
        case .string(let text): return .some(text)
        default:
            errors.append(FieldError(field: name(field), message: "must be a string or null, got \(value.typeName)"))
            return nil
        }
    }

    public mutating func bool(_ field: String) -> Bool? {
        guard let value = value(field) else { return nil }
        guard case .bool(let flag) = value else {
            errors.append(FieldError(field: name(field), message: "must be true or false, got \(value.typeName)"))
            return nil
        }
        return flag
    }

    /// A whole number in `range`; null counts as absent.
    public mutating func integer(_ field: String, in range: ClosedRange<Int>) -> Int? {
        guard let value = value(field), !value.isNull else { return nil }
        guard let number = value.intValue, range.contains(number) else {
            errors.append(FieldError(field: name(field), message: "must be a whole number from \(range.lowerBound) to \(range.upperBound)"))
            return nil
        }
        return number
    }

    public mutating func stringList(_ field: String) -> [String]? {
        guard let value = value(field) else { return nil }
        guard case .array(let elements) = value else {
            errors.append(FieldError(field: name(field), message: "must be an array of strings, got \(value.typeName)"))
            return nil
        }
        var strings: [String] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element else {
                errors.append(FieldError(field: "\(name(field))[\(index)]", message: "must be a string, got \(element.typeName)"))
                continue
            }
            strings.append(text)
        }
        return strings
    }

    /// Marks fields that exist but may not be sent here.
    public mutating func refuse(_ fields: [String], because reason: String) {
        for field in fields where object[field] != nil {
            refused.insert(field)
            errors.append(FieldError(field: name(field), message: reason))
        }
    }

    public mutating func addError(_ error: FieldError) { errors.append(error) }

    /// Throws every problem found, including members that no reader asked for.
    public func finish() throws(ValidationFailure) {
        let all = problems
        if !all.isEmpty { throw ValidationFailure(all) }
    }

    /// Every problem found so far, then the members that no reader asked for: what `finish()` throws, for a caller
    /// that hands them on to a service, which reports them with its own.
    public var problems: [FieldError] {
        var all = errors
        // Once per request, not once per unknown member (a body may hold thousands of them), and only when there is
        // one: a body of known fields alone, every valid request, needs no list.
        var allowed: String?
        for member in object.members where !known.contains(member.key) && !refused.contains(member.key) {
            let list = allowed ?? known.sorted().joined(separator: ", ")
            allowed = list
            all.append(FieldError(field: name(member.key), message: list.isEmpty ? "is not a known field; this request takes no fields"
                                                                                 : "is not a known field; allowed: \(list)"))
        }
        return all
    }
}
