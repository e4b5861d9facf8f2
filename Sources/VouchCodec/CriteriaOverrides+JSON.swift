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
        func count(_ name: String, _ range: ClosedRange<Int>) -> Int? { reader.integer(name, in: range) }
        overrides.minTestersPassed = count("min_testers_passed", 0...1_000)
        overrides.maxBlocking = count("max_blocking", 0...1_000)
        // Never zero: overrides must not make a fix promotable without a release manager (docs/lifecycle.md, "Criteria").
        overrides.approvalsRequired = count("approvals_required", 1...100)
        if let value = reader.value("min_pass_ratio"), !value.isNull {
            if let ratio = value.doubleValue, (0...1).contains(ratio) { overrides.minPassRatio = ratio }
            else { reader.addError(FieldError(field: "min_pass_ratio", message: "must be a number from 0 to 1, such as 0.8")) }
        }
        if let value = reader.value("min_soak"), !value.isNull {
            do throws(FieldError) {
                guard let text = value.stringValue else {
                    throw FieldError(field: "min_soak", message: "must be a duration string such as 90s, 15m, 24h or 7d, got \(value.typeName)")
                }
                overrides.minSoakSeconds = try DurationText.seconds(text, field: "min_soak", allowed: 0...DurationText.maximumSeconds)
            } catch {
                reader.addError(error)
            }
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
