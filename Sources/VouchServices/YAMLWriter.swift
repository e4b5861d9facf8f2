import VouchJSON

/// Writes a JSON value as block-style YAML 1.2, for OpenACR reports (docs/evidence.md). Every string is double-quoted
/// with YAML's escapes, so no value can be read back as another type ("no", "1.10", "null") or break the structure;
/// members keep their order. The output is also plain YAML 1.1, which PyYAML and OpenACR's own tools read.
public enum YAMLWriter {
    public static func string(_ value: JSONValue) -> String {
        lines(value, indent: 0).joined(separator: "\n") + "\n"
    }

    static func lines(_ value: JSONValue, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        switch value {
        case .object(let object) where !object.members.isEmpty:
            return object.members.flatMap { member -> [String] in
                let key = pad + self.key(member.key) + ":"
                if isBlock(member.value) { return [key] + lines(member.value, indent: indent + 2) }
                return [key + " " + scalar(member.value)]
            }
        case .array(let items) where !items.isEmpty:
            return items.flatMap { item -> [String] in
                guard isBlock(item) else { return [pad + "- " + scalar(item)] }
                var itemLines = lines(item, indent: indent + 2)
                itemLines[0] = pad + "- " + itemLines[0].dropFirst(indent + 2)
                return itemLines
            }
        default:
            return [pad + scalar(value)]
        }
    }

    /// A non-empty mapping or sequence, written on the lines below its key.
    static func isBlock(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let object): !object.members.isEmpty
        case .array(let items): !items.isEmpty
        default: false
        }
    }

    static func scalar(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .number: JSONWriter.string(value)
        case .string(let text): quoted(text)
        case .array: "[]"
        case .object: "{}"
        }
    }

    /// A key as it stands when it is a plain word (`success_criteria_level_a`, `en_301_549_ict_with_two-way_voice`),
    /// quoted otherwise.
    static func key(_ name: String) -> String {
        let plain = !name.isEmpty && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") }
            && name.first != "-" && !["true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"].contains(name.lowercased())
        return plain ? name : quoted(name)
    }

    /// A double-quoted scalar: quotes, backslashes and every character YAML does not print as itself escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                let value = scalar.value
                if value < 0x20 || (0x7F...0x9F).contains(value) || value == 0xFEFF || value == 0xFFFE || value == 0xFFFF
                    || value == 0x2028 || value == 0x2029 {
                    let hex = String(value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
