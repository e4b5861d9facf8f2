import Foundation
import VouchCodec

/// The rule a configuration value must follow, with the words that explain it.
enum ConfigValueCheck: Sendable {
    case listenAddress
    case path
    case oneOf([String])
    case integer(ClosedRange<Int>)
    case ratio
    case duration
    case durationList
    case percentageList
    case boolean
    case assistiveTechList

    /// Nil when `value` is fine, otherwise what is allowed.
    func problem(with value: String) -> String? {
        switch self {
        case .listenAddress:
            guard let colon = value.lastIndex(of: ":"), let port = Int(value[value.index(after: colon)...]), (0...65_535).contains(port),
                  colon != value.startIndex else {
                return "expected HOST:PORT such as 127.0.0.1:8750 or [::1]:8750, with a port from 0 to 65535"
            }
            return nil
        case .path:
            return value.isEmpty ? "expected a directory path" : nil
        case .oneOf(let allowed):
            return allowed.contains(value) ? nil : "allowed: \(allowed.joined(separator: ", "))"
        case .integer(let range):
            guard let number = Int(value), range.contains(number) else { return "expected a whole number from \(range.lowerBound) to \(range.upperBound)" }
            return nil
        case .ratio:
            guard let number = Double(value), (0...1).contains(number) else { return "expected a number from 0 to 1, such as 0.8" }
            return nil
        case .duration:
            return ConfigValueCheck.seconds(value) == nil ? "expected a duration such as 90s, 15m, 24h or 7d" : nil
        case .durationList:
            let parts = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            return parts.isEmpty || parts.contains { ConfigValueCheck.seconds($0) == nil }
                ? "expected durations separated by commas, such as 5s,5m,30m" : nil
        case .percentageList:
            let numbers = value.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard !numbers.isEmpty, numbers.allSatisfy({ $0 != nil && (1...100).contains($0!) }),
                  zip(numbers, numbers.dropFirst()).allSatisfy({ $0! < $1! }), numbers.last! == 100 else {
                return "expected increasing percentages from 1 to 100 ending with 100, such as 1,2,5,10,20,50,100"
            }
            return nil
        case .boolean:
            return ["true", "false"].contains(value) ? nil : "allowed: true, false"
        case .assistiveTechList:
            let platforms = ["ios", "android", "web"]
            let technologies = ["voiceover", "talkback", "switch_control", "switch_access", "voice_control", "voice_access",
                                "braille_display", "screen_magnifier", "large_text", "other"]
            let pairs = value.split(separator: ",").map { $0.split(separator: ":").map { String($0).trimmingCharacters(in: .whitespaces) } }
            let valid = pairs.allSatisfy { $0.count == 2 && platforms.contains($0[0]) && technologies.contains($0[1]) }
            return valid ? nil : "expected platform:technology pairs separated by commas, such as ios:voiceover,android:talkback"
        }
    }

    static func seconds(_ text: String) -> Int? { DurationText.seconds(text) }
}
