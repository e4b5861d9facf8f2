extension HeaderReading where Self: ~Copyable {
    /// Whether the body may be read as JSON: no `Content-Type`, or `application/json` or a `+json` type.
    /// Inlinable, and the usual two cases (none, or exactly `application/json`) answered from the value's bytes: an
    /// OFREP request through the direct handler asks this of `DirectRequest`, where a generic call made a String.
    @inlinable
    public var hasJSONBody: Bool {
        if withValueBytes("content-type", { bytes in bytes.map { HTTPRequest.equal($0, "application/json") } ?? true }) { return true }
        guard let mediaType else { return true }
        return mediaType == "application/json" || mediaType.hasSuffix("+json")
    }

    /// The media type of the body without parameters, lowercased (`application/json`).
    public var mediaType: String? {
        // The usual value, compared on its bytes, answered with a literal: no String made of it per request.
        let isPlainJSON = withValueBytes("content-type") { bytes in bytes.map { HTTPRequest.equal($0, "application/json") } }
        guard let isPlainJSON else { return nil }
        if isPlainJSON { return "application/json" }
        guard let contentType = value("content-type") else { return nil }
        // Bytes, not Foundation (this runs on every OFREP request): up to ';', blanks trimmed, ASCII lowercased.
        var utf8 = Substring(contentType).utf8
        if let semicolon = utf8.firstIndex(of: UInt8(ascii: ";")) { utf8 = utf8[..<semicolon] }
        while let first = utf8.first, first == 0x20 || first == 0x09 { utf8 = utf8.dropFirst() }
        while let last = utf8.last, last == 0x20 || last == 0x09 { utf8 = utf8.dropLast() }
        return String(decoding: utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
