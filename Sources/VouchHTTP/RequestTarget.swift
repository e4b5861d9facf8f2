import Glibc

/// The request target as the client sent it, read before libmicrohttpd splits off the query and
/// percent-decodes the path: the only place a `%00` or the real number of query parameters can be seen.
struct RequestTarget: Equatable {
    /// Bytes up to the first NUL: libmicrohttpd hands the target over as a C string.
    var length = 0
    /// Where the query starts (the `?`), if there is one.
    var queryStart: Int?
    var queryParameters = 0
    /// `%00` anywhere, which percent-decoding would turn into a NUL that ends the path or a value early.
    var hasEncodedNUL = false

    /// The bytes that matter are found with `memchr`, which skips the rest many bytes at a time: a loop over every
    /// byte of every target would be a tenth of a request's own work.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        length = bytes.count
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let count = bytes.count
        var from = 0
        while from < count, let percent = memchr(base + from, Int32(UInt8(ascii: "%")), count - from) {
            let index = UnsafeRawPointer(percent) - UnsafeRawPointer(base)
            if index + 2 < count, base[index + 1] == UInt8(ascii: "0"), base[index + 2] == UInt8(ascii: "0") {
                hasEncodedNUL = true
                break
            }
            from = index + 1
        }
        guard let question = memchr(base, Int32(UInt8(ascii: "?")), count) else { return }
        let start = UnsafeRawPointer(question) - UnsafeRawPointer(base)
        queryStart = start
        guard start + 1 < count else { return }
        queryParameters = 1
        from = start + 1
        while from < count, let ampersand = memchr(base + from, Int32(UInt8(ascii: "&")), count - from) {
            queryParameters += 1
            from = UnsafeRawPointer(ampersand) - UnsafeRawPointer(base) + 1
        }
    }

    /// The target libmicrohttpd hands to its URI callback.
    init(cString: UnsafePointer<CChar>) {
        self.init(UnsafeBufferPointer(start: UnsafeRawPointer(cString).assumingMemoryBound(to: UInt8.self), count: strlen(cString)))
    }

    /// Why the server refuses this target, or nil when it is within the limits.
    func problem(_ limits: RequestLimits) -> Problem? {
        if hasEncodedNUL { return RequestTarget.nulProblem }
        if length > limits.maxTargetBytes {
            return Problem(status: 414, detail: "the request target (path and query) is \(length) bytes; at most \(limits.maxTargetBytes) are allowed")
        }
        if queryParameters > limits.maxQueryParameters {
            return Problem(status: 414, detail: "the query has \(queryParameters) parameters; at most \(limits.maxQueryParameters) are allowed")
        }
        return nil
    }

    static let nulProblem = Problem(status: 400, detail: "the request target holds a NUL byte (%00 or a raw 0 byte); no path or query of this API has one")

    /// True when the raw request line held a 0 byte inside the target, which cut the C string libmicrohttpd
    /// showed the URI callback short.
    ///
    /// libmicrohttpd parses the request line in place: `url` is where the target starts and `version` where the
    /// version starts, just after the space it overwrote with a NUL, so the target as received spans
    /// `version - 1 - url` bytes. libmicrohttpd 0.9.75 does not document this layout; when the two pointers do not
    /// look like it (another buffer, a span longer than any request line), the check answers false.
    static func heldRawNUL(url: UnsafePointer<CChar>, version: UnsafePointer<CChar>, targetLength: Int) -> Bool {
        let span = UnsafeRawPointer(version) - UnsafeRawPointer(url) - 1
        guard span >= 0, span <= 1 << 20 else { return false }
        return span != targetLength
    }
}
