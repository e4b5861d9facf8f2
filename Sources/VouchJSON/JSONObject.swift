/// A JSON object: its members in the order they were written, looked up by name in constant time.
///
/// Names are unique. Setting a name that is present replaces its value where it stands, and so does a
/// repeated name given to `init` (the last value wins); `JSONParser` refuses a repeated name instead (a parse
/// error, so 400 on every route), since a request that says two things about one field is ambiguous.
public struct JSONObject: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    private var storage = OrderedMembers<String, JSONValue>()

    public init(_ members: [(key: String, value: JSONValue)] = []) {
        storage = OrderedMembers(reservingCapacity: members.count)
        for member in members { storage.set(member.key, member.value) }
    }

    /// Sized once: an answer's object literal (a feedback record has 27 members) grew its index five times.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        storage = OrderedMembers(reservingCapacity: elements.count)
        for (key, value) in elements { storage.set(key, value) }
    }

    /// The parser's path: members read in order, indexed in one pass; a repeated name is refused.
    init(indexing members: [(key: String, value: JSONValue)]) throws(OrderedMembers<String, JSONValue>.RepeatedName) {
        storage = try OrderedMembers(indexing: members)
    }

    public var members: [(key: String, value: JSONValue)] { storage.members }

    public var keys: [String] { storage.members.map(\.key) }

    public subscript(key: String) -> JSONValue? {
        get { storage[key] }
        set {
            if let newValue { storage.set(key, newValue) } else { storage.remove(key) }
        }
    }

    /// Sets every member of `other`, in its order: its values replace those of the same name here.
    public mutating func merge(_ other: JSONObject) {
        for member in other.members { storage.set(member.key, member.value) }
    }
}
