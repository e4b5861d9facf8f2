/// The collected headers of the request a `RequestState` serves, read where libmicrohttpd keeps them: each is the
/// first line of one of the server's collected names (`RequestHeaderScan.Names`), as pointers into the connection's
/// memory, where libmicrohttpd leaves the header lines until the request completes.
///
/// The direct handler reads them in place; a request for the general handler gets them copied into `HTTPHeaders`
/// (`copy(into:)`): copies for every request, with the arrays and reference counts they take, would be a tenth
/// of an OFREP request's own work (docs/architecture.md, "The OFREP hot path").
///
/// One per `RequestState`, made with it and emptied when it is recycled; touched only on the thread that serves the
/// state's connection, like the state itself. Not public: its values point into memory that is libmicrohttpd's
/// only until the request completes, so a handler reads them through the `DirectRequest` it is lent, never this.
@usableFromInline
final class ReceivedHeaders: HeaderReading, @unchecked Sendable {
    @usableFromInline let names: RequestHeaderScan.Names
    /// Per index of `names.keys`: the value of that name's first line. Read only where `present` has its bit.
    @usableFromInline let values: UnsafeMutablePointer<UnsafeRawBufferPointer>
    /// The indexes of the names seen, in the order their first lines came.
    @usableFromInline let order: UnsafeMutablePointer<Int8>
    /// How many names were seen. Like `RequestState`'s properties, without run-time exclusivity checks (each costs a
    /// call per read): only the thread serving the state's connection touches it, which debug builds assert
    /// (`RequestState.assertOnOwnThread`).
    @exclusivity(unchecked) @usableFromInline private(set) var count = 0
    /// Bit i set when `names.keys[i]` was seen.
    @exclusivity(unchecked) private var present: UInt64 = 0

    init(names: RequestHeaderScan.Names) {
        self.names = names
        let capacity = max(1, names.keys.count)
        values = .allocate(capacity: capacity)
        values.initialize(repeating: UnsafeRawBufferPointer(start: nil, count: 0), count: capacity)
        order = .allocate(capacity: capacity)
        order.initialize(repeating: -1, count: capacity)
    }

    deinit {
        values.deallocate()
        order.deallocate()
    }

    /// Keeps `value` for the collected name at `key` unless a line of that name came before: the first one counts.
    /// `value` must stay where it is until `removeAll()`.
    @inline(__always)
    func record(key: Int, value: UnsafeRawBufferPointer) {
        guard present & (1 << UInt64(key)) == 0 else { return }
        present |= 1 << UInt64(key)
        values[key] = value
        order[count] = Int8(key)
        count += 1
    }

    /// None seen, for the state's next request. The values' memory is libmicrohttpd's; nothing is freed.
    func removeAll() {
        present = 0
        count = 0
    }

    /// The value of the collected name at `key`, nil when the request had none.
    @inline(__always)
    func value(key: Int) -> UnsafeRawBufferPointer? {
        key >= 0 && present & (1 << UInt64(key)) != 0 ? values[key] : nil
    }

    // Inlinable, as `HTTPHeaders`' are, so that a read from another module is specialized rather than a generic call.
    @inlinable
    func contains(_ name: String) -> Bool {
        index(of: name) != nil
    }

    @inlinable
    func withValueBytes<Result>(_ name: String, _ body: (UnsafeRawBufferPointer?) -> Result) -> Result {
        guard let key = index(of: name) else { return body(nil) }
        return body(values[key])
    }

    /// The index of `name` (lowercased) among the names seen; names not collected are never seen.
    @inlinable @inline(__always)
    func index(of name: String) -> Int? {
        // The name's length once, then each header's length from the table: Strings are compared only for a name of
        // the same length, which is nearly always the one looked for.
        let length = name.utf8.count
        for position in 0..<count {
            let key = Int(order[position])
            if names.keyLengths[key] == length && names.key(key) == name { return key }
        }
        return nil
    }

    /// Appends every header seen, in the order the lines came, to `headers`: what `HTTPRequest.headers` holds.
    func copy(into headers: inout HTTPHeaders) {
        for position in 0..<count {
            let key = Int(order[position])
            headers.append(name: names.key(key), bytes: values[key])
        }
    }
}
