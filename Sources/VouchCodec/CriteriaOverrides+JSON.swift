import Foundation
import VouchDomain
import VouchJSON

extension CriteriaOverrides {
    /// Only the overridden keys, named as in the configuration (`min_testers_passed`, `min_soak` as a duration…).
    public var jsonValue: JSONValue {
        var object = JSONObject()
        if let value = minTestersPassed { object["min_testers_passed"] = .int(value) }
        if let value = requiredAssistiveTech { object["required_assistive_tech"] = .strings(value.map(\.text)) }
        if let value = maxBlocking { object["max_blocking"] = .int(value) }
        if let value = minPassRatio { object["min_pass_ratio"] = .number(value) }
        if let value = minSoakSeconds { object["min_soak"] = .string(DurationText.string(value)) }
        if let value = approvalsRequired { object["approvals_required"] = .int(value) }
        return .object(object)
    }

    /// Reads overrides; every key is optional, and null removes an override.
    public static func read(_ json: JSONValue) -> (overrides: CriteriaOverrides, errors: [FieldError]) {
        guard case .object(let object) = json else {
            return (CriteriaOverrides(), [FieldError(field: "(body)", message: "must be a JSON object, got \(json.typeName)")])
        }
        var reader = JSONFieldReader(object: object)
        var overrides = CriteriaOverrides()
        func count(_ name: String, _ range: ClosedRange<Int>) -> Int? {
            guard let value = reader.value(name), !value.isNull else { return nil }
            guard let number = value.intValue, range.contains(number) else {
                reader.addError(FieldError(field: name, message: "must be a whole number from \(range.lowerBound) to \(range.upperBound)"))
                return nil
            }
            return number
        }
        overrides.minTestersPassed = count("min_testers_passed", 0...1_000)
        overrides.maxBlocking = count("max_blocking", 0...1_000)
        overrides.approvalsRequired = count("approvals_required", 0...100)
        if let value = reader.value("min_pass_ratio"), !value.isNull {
            if let ratio = value.doubleValue, (0...1).contains(ratio) { overrides.minPassRatio = ratio }
            else { reader.addError(FieldError(field: "min_pass_ratio", message: "must be a number from 0 to 1, such as 0.8")) }
        }
        if let value = reader.value("min_soak"), !value.isNull {
            if let text = value.stringValue, let seconds = DurationText.seconds(text) { overrides.minSoakSeconds = seconds }
            else { reader.addError(FieldError(field: "min_soak", message: "must be a duration such as 90s, 15m, 24h or 7d")) }
        }
        if let value = reader.value("required_assistive_tech"), !value.isNull {
            let text: String?
            switch value {
            case .string(let string): text = string
            case .array(let items): text = items.allSatisfy({ $0.stringValue != nil }) ? items.compactMap(\.stringValue).joined(separator: ",") : nil
            default: text = nil
            }
            if let text {
                do { overrides.requiredAssistiveTech = try CriteriaSettings.requirements(parsing: text, field: "required_assistive_tech") }
                catch { reader.addError(error) }
            } else {
                reader.addError(FieldError(field: "required_assistive_tech", message: "must be a list of platform:technology, such as [\"ios:voiceover\"]"))
            }
        }
        do {
            try reader.finish()
            return (overrides, [])
        } catch {
            return (overrides, error.errors)
        }
    }
}

/// Durations as people write them in configuration: `90s`, `15m`, `24h`, `7d`.
public enum DurationText {
    public static func seconds(_ text: String) -> Int? {
        let text = text.trimmingCharacters(in: .whitespaces)
        if text == "0" { return 0 }
        guard let unit = text.last, let number = Int(text.dropLast()), number >= 0 else { return nil }
        let factor: Int
        switch unit {
        case "s": factor = 1
        case "m": factor = 60
        case "h": factor = 3_600
        case "d": factor = 86_400
        default: return nil
        }
        // `99999999999999999d` must be refused, not trap.
        let (seconds, overflow) = number.multipliedReportingOverflow(by: factor)
        return overflow ? nil : seconds
    }

    /// The shortest exact form: `86400` → `1d`, `5400` → `90m`.
    public static func string(_ seconds: Int) -> String {
        if seconds > 0 && seconds % 86_400 == 0 { return "\(seconds / 86_400)d" }
        if seconds > 0 && seconds % 3_600 == 0 { return "\(seconds / 3_600)h" }
        if seconds > 0 && seconds % 60 == 0 { return "\(seconds / 60)m" }
        return "\(seconds)s"
    }
}
