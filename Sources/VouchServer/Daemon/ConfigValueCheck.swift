import Foundation
import VouchCodec
import VouchDomain

/// The rule a configuration value must follow, with the words that explain it.
enum ConfigValueCheck: Sendable {
    case listenAddress
    case path
    case oneOf([String])
    case integer(ClosedRange<Int>)
    case ratio
    case duration
    /// A duration whose seconds lie in the range.
    case durationWithin(ClosedRange<Int>)
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
        case .durationWithin(let range):
            guard let seconds = ConfigValueCheck.seconds(value), range.contains(seconds) else {
                return "expected a duration from \(DurationText.string(range.lowerBound)) to \(DurationText.string(range.upperBound)), such as 10s or 2m"
            }
            return nil
        case .durationList:
            let parts = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            return parts.isEmpty || parts.contains { ConfigValueCheck.seconds($0) == nil }
                ? "expected durations separated by commas, such as 5s,5m,30m" : nil
        case .percentageList:
            // The same rule as a fix's own rollout profile.
            let numbers = value.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard numbers.allSatisfy({ $0 != nil }), RolloutPlan.validate(steps: numbers.compactMap { $0 }, intervalSeconds: 1).isEmpty else {
                return "expected increasing percentages from 1 to 100 ending with 100, such as 1,2,5,10,20,50,100"
            }
            return nil
        case .boolean:
            return ["true", "false"].contains(value) ? nil : "allowed: true, false"
        case .assistiveTechList:
            // Parsed by the domain, which knows the platforms and technologies.
            do { _ = try CriteriaSettings.requirements(parsing: value, field: "criteria.required_assistive_tech") } catch { return error.message }
            return nil
        }
    }

    static func seconds(_ text: String) -> Int? { DurationText.seconds(text) }
}
