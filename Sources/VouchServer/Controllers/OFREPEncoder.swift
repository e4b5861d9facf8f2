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
        bytes.append(contentsOf: #"{"flags":["#.utf8)
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
        bytes.append(contentsOf: #"{"key":"#.utf8)
        JSONWriter.writeString(outcome.key, into: &bytes)
        if let failure = outcome.failure {
            bytes.append(contentsOf: #","errorCode":""#.utf8)
            bytes.append(contentsOf: failure.rawValue.utf8)
            bytes.append(contentsOf: #"","errorDetails":"#.utf8)
            JSONWriter.writeString(failure.details, into: &bytes)
            bytes.append(UInt8(ascii: "}"))
            return
        }
        bytes.append(contentsOf: (outcome.value ? #","value":true,"reason":""# : #","value":false,"reason":""#).utf8)
        bytes.append(contentsOf: (outcome.reason?.rawValue ?? "UNKNOWN").utf8)
        bytes.append(contentsOf: (outcome.value ? #"","variant":"on","metadata":{"revision":"# : #"","variant":"off","metadata":{"revision":"#).utf8)
        bytes.append(contentsOf: String(outcome.revision).utf8)
        bytes.append(contentsOf: #","state":""#.utf8)
        bytes.append(contentsOf: outcome.state.rawValue.utf8)
        bytes.append(contentsOf: "\"}}".utf8)
    }
}
