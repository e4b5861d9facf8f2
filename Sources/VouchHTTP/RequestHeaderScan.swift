import CMicroHTTPD
import Foundation

/// One pass over a request's header lines: the headers Vouch reads, and what decides how the body is framed
/// (RFC 9112 §6.3), which libmicrohttpd 0.9.75 does not check: with both `Content-Length` and
/// `Transfer-Encoding` it goes by the latter, with two `Content-Length`s by the first, and with a transfer coding
/// it does not know it reads the body until the connection closes. It dechunks only a `Transfer-Encoding` whose
/// value is exactly `chunked` in any case (it drops the spaces before a value, not those after), and it keeps a
/// space or tab before the colon as part of the name, so `Content-Length : 2` is a header of another name to it,
/// while another server in front may read it as the length. Any of these lets a request hide another.
///
/// The values of the collected names go to the request's `ReceivedHeaders`, as pointers: nothing is copied here.
@usableFromInline struct RequestHeaderScan: Sendable {
    var contentLengthLines = 0
    /// The first `Content-Length`, which libmicrohttpd checked was a number before calling the handler.
    var contentLength: Int?
    var hostLines = 0
    /// Every `Transfer-Encoding` line; empty for nearly all requests.
    var transferEncodings: [String] = []
    /// The first field name that is empty or holds whitespace, a control character or a byte outside ASCII (`Content-Length ` of
    /// `Content-Length : 2`), and how many there were; nil for nearly all requests.
    var malformedName: String?
    var malformedNameLines = 0

    /// The names to look for, lowercased, in flat memory of their own made once per server: a header line is
    /// compared with the few names of its length and first letter, without a reference count taken or an index
    /// checked per line (those would be most of the scan's cost). The three names that decide the framing are among
    /// them, with a role each, whether or not they are collected too.
    @usableFromInline final class Names: @unchecked Sendable {
        /// The collected names, lowercased, each once; `HTTPRequest.headers` has them under these, and
        /// `ReceivedHeaders` keeps their values by index in this list.
        let keys: [String]

        enum Role: UInt8 {
            case none, contentLength, transferEncoding, host
        }

        /// Per name looked for: where its bytes start in `bytes`, its length, its index in `keys` (-1 when it is not
        /// collected), its role, and the next name in the same bucket (-1 ends the chain).
        private struct Entry {
            var start: Int32
            var length: Int32
            var key: Int8
            var role: Role
            var next: Int8
        }

        private let bytes: UnsafeMutablePointer<UInt8>
        /// Per byte of `bytes`: 0x20 where it is a letter, 0 elsewhere. A received byte ORed with its mask equals the
        /// lowercased byte exactly when the two are the same letter in either case or the same other byte, which
        /// compares eight bytes at a time.
        private let masks: UnsafeMutablePointer<UInt8>
        /// `keys` again, read without the array's reference count.
        @usableFromInline let keyStrings: UnsafeMutablePointer<String>
        /// Each of `keys`' length in UTF-8 bytes, so a lookup by name compares numbers before it compares Strings.
        @usableFromInline let keyLengths: UnsafeMutablePointer<Int>
        private let entries: UnsafeMutablePointer<Entry>
        /// The first entry per bucket, -1 for none; a bucket is the length's and the first byte's low five bits.
        private let buckets: UnsafeMutablePointer<Int8>
        private static let bucketCount = 1 << 10

        init(_ names: [String]) {
            var unique: [String] = []
            for name in names.map({ $0.lowercased() }) where !unique.contains(name) { unique.append(name) }
            precondition(unique.count <= 64, "at most 64 request headers can be collected, \(unique.count) were asked for")
            keys = unique
            keyStrings = .allocate(capacity: max(1, unique.count))
            keyStrings.initialize(from: unique, count: unique.count)
            keyLengths = .allocate(capacity: max(1, unique.count))
            keyLengths.initialize(from: unique.map(\.utf8.count), count: unique.count)
            var looked = unique.filter { !$0.isEmpty }.map { ($0, Role.none) }
            for (name, role) in [("content-length", Role.contentLength), ("transfer-encoding", .transferEncoding), ("host", .host)] {
                if let index = looked.firstIndex(where: { $0.0 == name }) { looked[index].1 = role } else { looked.append((name, role)) }
            }
            let allBytes = looked.flatMap { Array($0.0.utf8) }
            bytes = .allocate(capacity: max(1, allBytes.count))
            bytes.initialize(from: allBytes, count: allBytes.count)
            masks = .allocate(capacity: max(1, allBytes.count))
            masks.initialize(from: allBytes.map { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") ? 0x20 : 0 }, count: allBytes.count)
            entries = .allocate(capacity: looked.count)
            buckets = .allocate(capacity: Names.bucketCount)
            buckets.initialize(repeating: -1, count: Names.bucketCount)
            var start = 0
            for (index, (name, role)) in looked.enumerated() {
                let utf8 = Array(name.utf8)
                let bucket = Names.bucket(length: utf8.count, first: utf8[0])
                (entries + index).initialize(to: Entry(start: Int32(start), length: Int32(utf8.count), key: Int8(unique.firstIndex(of: name) ?? -1),
                                                      role: role, next: buckets[bucket]))
                buckets[bucket] = Int8(index)
                start += utf8.count
            }
        }

        deinit {
            keyStrings.deinitialize(count: keys.count)
            keyStrings.deallocate()
            keyLengths.deallocate()
            bytes.deallocate()
            masks.deallocate()
            entries.deallocate()
            buckets.deallocate()
        }

        /// Whether `name` is the lowercased name at `lowercased` in any case (see `masks`).
        @inline(__always)
        static func matches(_ name: UnsafeRawBufferPointer, lowercased: UnsafePointer<UInt8>, masks: UnsafePointer<UInt8>) -> Bool {
            let count = name.count
            guard let base = name.baseAddress else { return count == 0 }
            let lowered = UnsafeRawPointer(lowercased)
            let mask = UnsafeRawPointer(masks)
            if count >= 8 {
                var offset = 0
                while offset + 8 <= count {
                    if !sameWord(base, mask, lowered, at: offset, as: UInt64.self) { return false }
                    offset += 8
                }
                // The tail as the last eight bytes, which overlap words already compared: those compared equal.
                return offset == count || sameWord(base, mask, lowered, at: count - 8, as: UInt64.self)
            }
            if count >= 4 {
                // Two four-byte words, overlapping when the name is shorter than eight bytes.
                return sameWord(base, mask, lowered, at: 0, as: UInt32.self) && sameWord(base, mask, lowered, at: count - 4, as: UInt32.self)
            }
            for offset in 0..<count where base.load(fromByteOffset: offset, as: UInt8.self) | masks[offset] != lowercased[offset] { return false }
            return true
        }

        /// Whether the received word at `offset`, ORed with its mask, equals the lowercased one.
        @inline(__always)
        private static func sameWord<Word: FixedWidthInteger>(_ received: UnsafeRawPointer, _ mask: UnsafeRawPointer, _ lowered: UnsafeRawPointer,
                                                              at offset: Int, as: Word.Type) -> Bool {
            received.loadUnaligned(fromByteOffset: offset, as: Word.self) | mask.loadUnaligned(fromByteOffset: offset, as: Word.self)
                == lowered.loadUnaligned(fromByteOffset: offset, as: Word.self)
        }

        /// The index in `keys` of a collected name given lowercased; nil when it is not collected.
        func index(of name: String) -> Int? { keys.firstIndex(of: name) }

        /// The collected name at `index` of `keys`.
        @inlinable @inline(__always)
        func key(_ index: Int) -> String { keyStrings[index] }

        @inline(__always)
        private static func bucket(length: Int, first: UInt8) -> Int {
            (length & 31) << 5 | Int(first | 0x20) & 31
        }

        /// The collected index and role of a header line's name; (-1, .none) for a name not looked for.
        @inline(__always)
        func find(_ name: UnsafeRawBufferPointer) -> (key: Int, role: Role) {
            guard let base = name.baseAddress, !name.isEmpty else { return (-1, .none) }
            var index = Int(buckets[Names.bucket(length: name.count, first: base.load(as: UInt8.self))])
            while index >= 0 {
                let entry = entries[index]
                if Int(entry.length) == name.count, Names.matches(name, lowercased: bytes + Int(entry.start), masks: masks + Int(entry.start)) {
                    return (Int(entry.key), entry.role)
                }
                index = Int(entry.next)
            }
            return (-1, .none)
        }
    }

    /// Nothing seen yet. Its own initializer, not the one below with every argument defaulted, which copied a whole
    /// scan into place.
    init() {}

    init(contentLengthLines: Int = 0, contentLength: Int? = nil, hostLines: Int = 0, transferEncodings: [String] = [],
         malformedName: String? = nil) {
        self.contentLengthLines = contentLengthLines
        self.contentLength = contentLength
        self.hostLines = hostLines
        self.transferEncodings = transferEncodings
        self.malformedName = malformedName
        malformedNameLines = malformedName == nil ? 0 : 1
    }

    /// Reads every header line of the connection's current request, keeping the values of collected names in
    /// `received`. A mutating method, not an initializer, so the iterator writes into the caller's scan: an
    /// initializer copied the scan out, retaining all it holds.
    ///
    /// `names` reaches the iterator unretained, and the scan does not keep it: one object shared by every HTTP
    /// thread, whose reference count two cores passed back and forth on every request. The caller's references
    /// keep it and `received` alive for the call.
    mutating func read(_ connection: OpaquePointer, names: Names, into received: ReceivedHeaders) {
        withUnsafeMutablePointer(to: &self) { scan in
            var reading = Reading(scan: scan, names: Unmanaged.passUnretained(names), received: Unmanaged.passUnretained(received))
            _ = withUnsafeMutablePointer(to: &reading) { reading in
                MHD_get_connection_values_n(connection, MHD_ValueKind.HEADER_KIND, RequestHeaderScan.iterator, reading)
            }
        }
    }

    /// What the iterator is given: where to write, the names to look for, and where their values go.
    private struct Reading {
        let scan: UnsafeMutablePointer<RequestHeaderScan>
        let names: Unmanaged<Names>
        let received: Unmanaged<ReceivedHeaders>
    }

    private static let iterator: MHD_KeyValueIteratorN = { context, _, key, keySize, value, valueSize in
        guard let context, let key else { return .YES }
        let reading = context.assumingMemoryBound(to: Reading.self).pointee
        reading.names._withUnsafeGuaranteedRef { names in
            reading.received._withUnsafeGuaranteedRef { received in
                reading.scan.pointee.add(name: UnsafeRawBufferPointer(start: key, count: keySize),
                                         value: UnsafeRawBufferPointer(start: value, count: value == nil ? 0 : valueSize), names: names,
                                         into: received)
            }
        }
        return .YES
    }

    /// One header line; `value` must stay where it is while `received` holds it.
    mutating func add(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, names: Names, into received: ReceivedHeaders) {
        let (key, role) = names.find(name)
        switch role {
        case .none:
            // A name looked for is a token by construction; only the others can hold a space, and the check reads
            // eight bytes at a time, so a well-formed head pays a few instructions per line.
            if name.isEmpty || RequestHeaderScan.holdsSpaceControlOrNonASCII(name) {
                malformedNameLines += 1
                if malformedName == nil { malformedName = String(decoding: name.prefix(64), as: UTF8.self) }
            }
        case .contentLength:
            contentLengthLines += 1
            if contentLengthLines == 1 { contentLength = RequestHeaderScan.decimal(value) }
        case .transferEncoding:
            transferEncodings.append(String(decoding: value, as: UTF8.self))
        case .host:
            hostLines += 1
        }
        if key >= 0 { received.record(key: key, value: value) }
    }

    /// Whether the request has a body to read: a length above zero, or chunks.
    var expectsBody: Bool { (contentLength ?? 0) > 0 || !transferEncodings.isEmpty }

    /// Why the server refuses this request's framing or head, or nil when it may go on.
    /// - Parameter version: the request's HTTP version, such as `HTTP/1.1`.
    func problem(version: String, headerBytes: Int, limits: RequestLimits) -> Problem? {
        if headerBytes > limits.maxHeaderBytes {
            return Problem(status: 431, detail: "the request line and headers are \(headerBytes) bytes; at most \(limits.maxHeaderBytes) are allowed (http.max_header_bytes)")
        }
        if let malformedName {
            // RFC 9112 §5.1: whitespace between a field name and its colon MUST be answered 400.
            let what = malformedName.isEmpty ? "a header line has no field name before its colon"
                : "the header field name '\(RequestHeaderScan.visible(malformedName))' holds whitespace, a control character or a byte outside ASCII"
            return Problem(status: 400, detail: what + (malformedNameLines > 1 ? " (and \(malformedNameLines - 1) more lines)" : "")
                + "; a field name is a token followed directly by its colon, with no space or tab before it")
        }
        if hostLines > 1 { return Problem(status: 400, detail: "the request has \(hostLines) Host headers; exactly one is allowed") }
        if hostLines == 0, version != "HTTP/1.0" { return Problem(status: 400, detail: "an \(version) request needs a Host header") }
        if contentLengthLines > 1 {
            return Problem(status: 400, detail: "the request has \(contentLengthLines) Content-Length headers; one at most, so the body's end is not in doubt")
        }
        guard !transferEncodings.isEmpty else { return nil }
        if contentLengthLines > 0 {
            return Problem(status: 400, detail: "the request has both Content-Length and Transfer-Encoding; send one, so the body's end is not in doubt")
        }
        if version == "HTTP/1.0" { return Problem(status: 400, detail: "Transfer-Encoding is not part of HTTP/1.0; send Content-Length") }
        // Exactly what libmicrohttpd dechunks, and nothing it would read another way: `chunked`, once, in any case.
        // Lowercased as ASCII, as libmicrohttpd compares: Unicode would take the Kelvin sign for a k.
        func asciiLowercased(_ text: some StringProtocol) -> String {
            String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
        if transferEncodings.count == 1, asciiLowercased(transferEncodings[0]) == "chunked" { return nil }
        let elements = transferEncodings.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let codings = elements.map { asciiLowercased($0.trimmingCharacters(in: [" ", "\t"])) }
        if let unknown = codings.first(where: { !$0.isEmpty && $0 != "chunked" }) {
            return Problem(status: 501, detail: "the transfer coding '\(RequestHeaderScan.visible(unknown))' is not supported; only chunked is")
        }
        let chunked = codings.filter { $0 == "chunked" }.count
        if chunked > 1 { return Problem(status: 400, detail: "chunked may be applied once; Transfer-Encoding lists it \(chunked) times") }
        let value = transferEncodings.joined(separator: ", ")
        return Problem(status: 400, detail: "Transfer-Encoding is '\(RequestHeaderScan.visible(value))'; the only value allowed is chunked, "
            + "without spaces, tabs or commas around it")
    }

    /// Whether a field name holds a byte no token has among the cheapest to find: a space, a tab or another control
    /// character (0x00 to 0x20), DEL or a byte outside ASCII (0x7F to 0xFF). The other delimiters (`"(),/;<=>?@[\]{}`)
    /// are not looked for: no server reads a name holding them as one of the framing names.
    @inline(__always)
    static func holdsSpaceControlOrNonASCII(_ name: UnsafeRawBufferPointer) -> Bool {
        guard let base = name.baseAddress else { return false }
        var offset = 0
        while offset + 8 <= name.count {
            let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            // A byte below 0x21 borrows in the subtraction and had its top bit clear: that sets its top bit. A byte of
            // 0x7F or more has its top bit set once 1 is added, or had it already. A borrow or carry reaches a byte
            // only from one below it that is itself found, so the answer is exact.
            let low = (word &- 0x2121_2121_2121_2121) & ~word
            let high = (word &+ 0x0101_0101_0101_0101) | word
            if (low | high) & 0x8080_8080_8080_8080 != 0 { return true }
            offset += 8
        }
        while offset < name.count {
            let byte = base.load(fromByteOffset: offset, as: UInt8.self)
            if byte <= 0x20 || byte >= 0x7F { return true }
            offset += 1
        }
        return false
    }

    /// Text from the request shown in a problem: at most 64 characters, control characters (a tab…) written as
    /// `\u{9}` so that they can be seen.
    static func visible(_ text: String) -> String {
        String(text.prefix(64)).unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
    }

    /// A run of ASCII digits as a number; nil for anything else (empty, a sign, a blank) or past `Int.max`.
    /// libmicrohttpd answered a `Content-Length` that is not a decimal number before the server saw it.
    static func decimal(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard !bytes.isEmpty else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(byte - 0x30))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
        }
        return value
    }
}
