import VouchDomain
import VouchJSON

/// Every fix as a flagd flag definition, so a flagd fed from `/flagd/v1/flags.json` (or the file
/// `vouch flags export --format flagd` writes) answers as Vouch does (docs/flagd.md).
///
/// Each fix is a boolean flag, always `ENABLED`: flagd answers a `DISABLED` flag with the caller's own default, and a
/// paused fix must be off even in an app whose default is on. Variants are named `"true"` and `"false"`, and targeting
/// returns the name.
public enum FlagdDefinitions {
    public static let schema = "https://flagd.dev/schema/v0/flags.json"

    /// The whole file, flags in key order and targeted keys sorted, so the same rules always give the same bytes.
    public static func document(rules: some Sequence<FlagRule>) -> JSONValue {
        var flags = JSONObject()
        for rule in rules.sorted(by: { $0.key < $1.key }) { flags[rule.key] = flag(rule) }
        return .object(["$schema": .string(schema), "flags": .object(flags)])
    }

    /// The keys of rules whose flagd answer is not Vouch's for every key: rollouts on Unleash's bucketing, which
    /// flagd serves to their targeted keys only (docs/decisions.md, "Bucketing flagd agrees with").
    public static func notReproduced(rules: some Sequence<FlagRule>) -> [String] {
        rules.filter(isApproximated).map(\.key).sorted()
    }

    static func isApproximated(_ rule: FlagRule) -> Bool {
        rule.state == .releasing && rule.bucketing == .unleash && (1...99).contains(rule.rolloutPercentage)
    }

    public static func flag(_ rule: FlagRule) -> JSONValue {
        var metadata: JSONObject = ["vouchState": .string(rule.state.rawValue), "vouchRevision": .int(rule.revision)]
        var defaultVariant = "false"
        var targeting: JSONValue?
        switch rule.state {
        case .draft, .paused, .rolledBack, .abandoned:
            break
        case .released:
            defaultVariant = "true"
        case .testing, .promoting, .promotionFailed:
            targeting = targetedOnly(rule)
        case .releasing:
            metadata["vouchRolloutPercentage"] = .int(rule.rolloutPercentage)
            metadata["vouchBucketing"] = .string(rule.bucketing.rawValue)
            if rule.rolloutPercentage >= 100 {
                defaultVariant = "true"
            } else if rule.rolloutPercentage <= 0 || isApproximated(rule) {
                targeting = targetedOnly(rule)
                if isApproximated(rule) { metadata["vouchExact"] = .bool(false) }
            } else {
                // flagd's shorthand: buckets `[flagKey, targetingKey]`, exactly as `Bucketing.flagd` does.
                let split: JSONValue = .object(["fractional": .array([
                    .array([.string("true"), .int(rule.rolloutPercentage)]),
                    .array([.string("false"), .int(100 - rule.rolloutPercentage)]),
                ])])
                targeting = rule.targetedKeys.isEmpty ? split : .object(["if": .array([isTargeted(rule), .string("true"), split])])
            }
        }
        var flag: JSONObject = [
            "state": .string("ENABLED"),
            "variants": .object(["true": .bool(true), "false": .bool(false)]),
            "defaultVariant": .string(defaultVariant),
        ]
        if let targeting { flag["targeting"] = targeting }
        flag["metadata"] = .object(metadata)
        return .object(flag)
    }

    /// On for the targeted keys, off for the rest; nothing when no key is targeted (the default variant says it).
    private static func targetedOnly(_ rule: FlagRule) -> JSONValue? {
        rule.targetedKeys.isEmpty ? nil : .object(["if": .array([isTargeted(rule), .string("true"), .string("false")])])
    }

    private static func isTargeted(_ rule: FlagRule) -> JSONValue {
        .object(["in": .array([.object(["var": .string("targetingKey")]), .strings(rule.targetedKeys.sorted())])])
    }
}
