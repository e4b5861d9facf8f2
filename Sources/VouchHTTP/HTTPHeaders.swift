/// A request's collected headers by lowercased name: a handful at most, so a list searched in order, which costs
/// less than hashing every name into a dictionary on every request.
///
/// Values read from the wire stay bytes until a handler asks for them as text: most are only checked for presence
/// or read as bytes (the bearer token), and making a String of each costs an allocation and a UTF-8 check per header.
public struct HTTPHeaders: HeaderReading, Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// One header: its lowercased name, and its value as text, or where its bytes are in `received`.
    @usableFromInline struct Field: Sendable {
        @usableFromInline var name: String
        @usableFromInline var text: String?
        @usableFromInline var start: Int
        @usableFromInline var count: Int
    }

    // Visible to inlined code, so that reading a header from another module is specialized, not a generic call.
    @usableFromInline var fields: [Field] = []
    /// The values of the headers added with `append(name:bytes:)`, one after the other.
    @usableFromInline var received: [UInt8] = []

    public init() {}

    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { self[name] = value }
    }

    public init(_ dictionary: [String: String]) {
        for (name, value) in dictionary { self[name] = value }
    }

    /// The value of the header named `name` (lowercased), as text (invalid UTF-8 repaired); setting replaces it,
    /// nil removes it.
    public subscript(name: String) -> String? {
        get {
            guard let field = fields.first(where: { HTTPHeaders.same($0.name, name) }) else { return nil }
            if let text = field.text { return text }
            return received.withUnsafeBytes { String(decoding: $0[field.start..<(field.start + field.count)], as: UTF8.self) }
        }
        set {
            if let index = fields.firstIndex(where: { $0.name == name }) {
                if let newValue { fields[index].text = newValue } else { fields.remove(at: index) }
            } else if let newValue {
                if fields.isEmpty { fields.reserveCapacity(4) }
                fields.append(Field(name: name, text: newValue, start: 0, count: 0))
            }
        }
    }

    /// Whether a header named `name` (lowercased) is there, without reading its value.
    @inlinable
    public func contains(_ name: String) -> Bool {
        fields.contains { HTTPHeaders.same($0.name, name) }
    }

    /// Calls `body` with the value's bytes as received (or as set), nil when there is no such header.
    @inlinable
    public func withValueBytes<Result>(_ name: String, _ body: (UnsafeRawBufferPointer?) -> Result) -> Result {
        for field in fields where HTTPHeaders.same(field.name, name) {
            if var text = field.text { return text.withUTF8 { body(UnsafeRawBufferPointer($0)) } }
            return received.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[field.start..<(field.start + field.count)])) }
        }
        return body(nil)
    }

    /// Names compared by length first: `utf8.count` is read from the string's header, while `==` on two different
    /// names calls into the standard library, and a request's headers are looked up several times each.
    @inlinable
    static func same(_ left: String, _ right: String) -> Bool {
        left.utf8.count == right.utf8.count && left == right
    }

    /// Bytes of received values the storage holds without growing.
    var receivedCapacity: Int { received.capacity }

    /// No headers, keeping the storage when asked (for the next request of a recycled `RequestState`).
    mutating func removeAll(keepingCapacity: Bool) {
        fields.removeAll(keepingCapacity: keepingCapacity)
        received.removeAll(keepingCapacity: keepingCapacity)
    }

    /// Adds a header the caller knows is not there yet, keeping its value as bytes.
    mutating func append(name: String, bytes: UnsafeRawBufferPointer) {
        if fields.isEmpty {
            fields.reserveCapacity(4)
            received.reserveCapacity(128)
        }
        fields.append(Field(name: name, text: nil, start: received.count, count: bytes.count))
        received.append(contentsOf: bytes)
    }

    public var isEmpty: Bool { fields.isEmpty }

    /// The same names with the same values, in any order.
    public static func == (left: HTTPHeaders, right: HTTPHeaders) -> Bool {
        left.fields.count == right.fields.count && left.fields.allSatisfy { right[$0.name] == left[$0.name] }
    }
}
