/// An `application/x-www-form-urlencoded` body, as HTML forms send it: names may repeat (checkboxes).
public struct FormData: Sendable, Equatable {
    public private(set) var pairs: [(name: String, value: String)]

    public init(_ pairs: [(name: String, value: String)] = []) { self.pairs = pairs }

    /// Parses the body; `+` is a space and `%XX` a byte, and the result must be UTF-8.
    /// - Throws: a 400 problem naming what is wrong, for a body no browser would send.
    public init(parsing body: [UInt8]) throws(Problem) {
        var pairs: [(name: String, value: String)] = []
        for part in body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = part.firstIndex(of: UInt8(ascii: "="))
            let name = try FormData.decode(part[..<(equals ?? part.endIndex)])
            var value = ""
            if let equals { value = try FormData.decode(part[part.index(after: equals)...]) }
            pairs.append((name, value))
        }
        self.pairs = pairs
    }

    /// The first value of `name`, or nil when the form did not send it.
    public subscript(name: String) -> String? { pairs.first { $0.name == name }?.value }

    /// Every value of `name`, in the order sent.
    public func values(_ name: String) -> [String] { pairs.filter { $0.name == name }.map(\.value) }

    public static func == (left: FormData, right: FormData) -> Bool {
        left.pairs.elementsEqual(right.pairs) { $0.name == $1.name && $0.value == $1.value }
    }

    private static func decode(_ bytes: ArraySlice<UInt8>) throws(Problem) -> String {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                decoded.append(0x20)
            } else if byte == UInt8(ascii: "%") {
                guard bytes.endIndex - index > 2, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else {
                    throw Problem(status: 400, detail: "the form body has a '%' not followed by two hexadecimal digits")
                }
                decoded.append(high << 4 | low)
                index += 2
            } else {
                decoded.append(byte)
            }
            index += 1
        }
        guard let text = String(validating: decoded, as: UTF8.self) else {
            throw Problem(status: 400, detail: "the form body is not UTF-8 text")
        }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
