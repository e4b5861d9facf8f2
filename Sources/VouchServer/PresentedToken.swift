import VouchHTTP

/// The API token a request presents, from `Authorization: Bearer …` or `X-API-Key`.
enum PresentedToken {
    /// The secret as a String, for the rare check that needs one (is this a revoked token?).
    static func secret(in request: HTTPRequest) -> String? {
        withSecret(in: request.headers) { $0.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// Calls `body` with the bytes of the token the request's headers present, where they are, or with nil.
    /// Bytes, not Foundation: `trimmingCharacters` and `lowercased` would be a third of the OFREP request's user
    /// time, and a String made of the secret an allocation per request.
    static func withSecret<Result>(in headers: borrowing some HeaderReading & ~Copyable, _ body: (UnsafeRawBufferPointer?) -> Result) -> Result {
        guard headers.contains("authorization") else { return headers.withValueBytes("x-api-key", body) }
        return headers.withValueBytes("authorization") { bytes in
            guard let bytes else { return body(nil) }
            // "Bearer" in any case, then a space.
            guard bytes.count > 7, bytes[0] | 0x20 == UInt8(ascii: "b"), bytes[1] | 0x20 == UInt8(ascii: "e"), bytes[2] | 0x20 == UInt8(ascii: "a"),
                  bytes[3] | 0x20 == UInt8(ascii: "r"), bytes[4] | 0x20 == UInt8(ascii: "e"), bytes[5] | 0x20 == UInt8(ascii: "r"),
                  bytes[6] == 0x20 else { return body(nil) }
            var start = 7
            var end = bytes.count
            while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
            while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
            return body(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
        }
    }
}
