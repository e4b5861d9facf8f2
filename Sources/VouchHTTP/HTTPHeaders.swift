/// A request's collected headers by lowercased name: a handful at most, so a list searched in order, which costs
/// less than hashing every name into a dictionary on every request.
public struct HTTPHeaders: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    private var fields: [(name: String, value: String)] = []

    public init() {}

    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { self[name] = value }
    }

    public init(_ dictionary: [String: String]) {
        for (name, value) in dictionary { self[name] = value }
    }

    /// The value of the header named `name` (lowercased); setting replaces it, nil removes it.
    public subscript(name: String) -> String? {
        get {
            for field in fields where field.name == name { return field.value }
            return nil
        }
        set {
            if let index = fields.firstIndex(where: { $0.name == name }) {
                if let newValue { fields[index].value = newValue } else { fields.remove(at: index) }
            } else if let newValue {
                if fields.isEmpty { fields.reserveCapacity(4) }
                fields.append((name, newValue))
            }
        }
    }

    /// Adds a header the caller knows is not there yet, without looking for it first.
    mutating func append(name: String, value: String) {
        if fields.isEmpty { fields.reserveCapacity(4) }
        fields.append((name, value))
    }

    public var isEmpty: Bool { fields.isEmpty }

    /// The same names with the same values, in any order.
    public static func == (left: HTTPHeaders, right: HTTPHeaders) -> Bool {
        left.fields.count == right.fields.count && left.fields.allSatisfy { right[$0.name] == $0.value }
    }
}
