/// Serialises `JSONValue` compactly, or indented for people reading `--json` output.
public enum JSONWriter {
    public static func bytes(_ value: JSONValue, pretty: Bool = false) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(value, into: &output, pretty: pretty, indent: 0)
        return output
    }

    public static func string(_ value: JSONValue, pretty: Bool = false) -> String {
        String(decoding: bytes(value, pretty: pretty), as: UTF8.self)
    }

    private static func write(_ value: JSONValue, into output: inout [UInt8], pretty: Bool, indent: Int) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number): writeNumber(number, into: &output)
        case .string(let text): writeString(text, into: &output)
        case .array(let elements):
            guard !elements.isEmpty else { output.append(contentsOf: "[]".utf8); return }
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(into: &output, pretty: pretty, indent: indent + 1)
                write(element, into: &output, pretty: pretty, indent: indent + 1)
            }
            newline(into: &output, pretty: pretty, indent: indent)
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            guard !object.members.isEmpty else { output.append(contentsOf: "{}".utf8); return }
            output.append(UInt8(ascii: "{"))
            for (position, member) in object.members.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(into: &output, pretty: pretty, indent: indent + 1)
                writeString(member.key, into: &output)
                output.append(UInt8(ascii: ":"))
                if pretty { output.append(UInt8(ascii: " ")) }
                write(member.value, into: &output, pretty: pretty, indent: indent + 1)
            }
            newline(into: &output, pretty: pretty, indent: indent)
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(into output: inout [UInt8], pretty: Bool, indent: Int) {
        guard pretty else { return }
        output.append(0x0A)
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    private static func writeNumber(_ number: Double, into output: inout [UInt8]) {
        // JSON has no NaN or infinity; null is the least surprising stand-in.
        guard number.isFinite else { output.append(contentsOf: "null".utf8); return }
        if number.rounded() == number, abs(number) < 0x1p53 {
            output.append(contentsOf: String(Int64(number)).utf8)
        } else {
            output.append(contentsOf: "\(number)".utf8)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    public static func writeString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // Most strings need no escape: copied in one piece, not byte by byte (a key in every OFREP answer).
        var plain = text
        let copied = plain.withUTF8 { bytes -> Bool in
            guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            output.append(contentsOf: bytes)
            return true
        }
        if copied {
            output.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                output.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
