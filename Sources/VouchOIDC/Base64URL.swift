/// base64url without padding (RFC 7515 §2, RFC 4648 §5): how every part of a JOSE object and every number of a JSON
/// Web Key is written. Decoding is strict: padding, white space, the standard alphabet's `+` and `/`, a length that
/// leaves 1 character over, and non-zero spare bits are refused, so one token has exactly one spelling.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = UInt8(index) }
        return table
    }()

    public static func encode(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var word: UInt32 = 0
            for (position, byte) in chunk.enumerated() { word |= UInt32(byte) << (16 - 8 * UInt32(position)) }
            for position in 0...chunk.count { text.append(alphabet[Int((word >> (18 - 6 * UInt32(position))) & 0x3F)]) }
            index += 3
        }
        return String(decoding: text, as: UTF8.self)
    }

    public static func decode(_ text: Substring) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count * 3 / 4)
        var word: UInt32 = 0
        var bits = 0
        for character in characters {
            let value = values[Int(character)]
            guard value != 0xFF else { return nil }
            word = (word << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8((word >> UInt32(bits)) & 0xFF))
            }
        }
        // Spare bits at the end must be zero, or two spellings would decode to the same bytes.
        guard word & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return bytes
    }

    public static func decode(_ text: String) -> [UInt8]? { decode(text[...]) }
}
