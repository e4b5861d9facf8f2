import VouchDomain
import VouchJSON

/// Writes OFREP answers straight to bytes: this is the hot path, so no intermediate JSON tree.
enum OFREPEncoder {
    static func success(_ outcome: FlagOutcome) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(160)
        write(outcome, into: &bytes)
        return bytes
    }

    /// - Parameter extraMembers: members after `flags`, each starting with a comma (`,"eventStreams":[…]`).
    static func bulk(_ outcomes: [FlagOutcome], extraMembers: [UInt8] = []) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16 + outcomes.count * 150 + extraMembers.count)
        append(#"{"flags":["#, to: &bytes)
        for (index, outcome) in outcomes.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            write(outcome, into: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
        bytes.append(contentsOf: extraMembers)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    private static func write(_ outcome: FlagOutcome, into bytes: inout [UInt8]) {
        append(#"{"key":"#, to: &bytes)
        JSONWriter.writeString(outcome.key, into: &bytes)
        if let failure = outcome.failure {
            append(#","errorCode":""#, to: &bytes)
            append(text: failure.rawValue, to: &bytes)
            append(#"","errorDetails":"#, to: &bytes)
            JSONWriter.writeString(failure.details, into: &bytes)
            bytes.append(UInt8(ascii: "}"))
            return
        }
        append(outcome.value ? #","value":true,"reason":""# : #","value":false,"reason":""#, to: &bytes)
        append(text: outcome.reason?.rawValue ?? "UNKNOWN", to: &bytes)
        append(outcome.value ? #"","variant":"on","metadata":{"revision":"# : #"","variant":"off","metadata":{"revision":"#, to: &bytes)
        appendDecimal(outcome.revision, to: &bytes)
        append(#","state":""#, to: &bytes)
        append(text: outcome.state.rawValue, to: &bytes)
        append("\"}}", to: &bytes)
    }

    /// A literal's bytes in one copy; appending a String's `utf8` view went through a generic byte-by-byte path.
    private static func append(_ literal: StaticString, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// A String's bytes as they are (the names of reasons and states, which need no escape).
    private static func append(text: String, to bytes: inout [UInt8]) {
        text.withUTF8Bytes { bytes.append(contentsOf: $0) }
    }

    /// The digits of `number`, without making a String of them.
    static func appendDecimal(_ number: Int, to bytes: inout [UInt8]) {
        guard number >= 0 else {
            bytes.append(UInt8(ascii: "-"))
            // The magnitude of Int.min does not fit in an Int; its digits do, as those of a UInt.
            return appendDigits(number.magnitude, to: &bytes)
        }
        appendDigits(UInt(number), to: &bytes)
    }

    private static func appendDigits(_ number: UInt, to bytes: inout [UInt8]) {
        if number >= 10 { appendDigits(number / 10, to: &bytes) }
        bytes.append(UInt8(ascii: "0") + UInt8(number % 10))
    }
}
