import Foundation
import VouchDomain
import VouchStore

/// A fix's direct targets: keys its flag is on for while it is in testing, such as a QA device's.
public struct TargetService: Sendable {
    let store: any TargetStore
    let clock: @Sendable () -> Date

    public static let maxKeysPerChange = 1_000
    public static let maxKeyLength = 256

    public init(store: any TargetStore, clock: @escaping @Sendable () -> Date) {
        self.store = store
        self.clock = clock
    }

    public func targets(of key: String, for principal: Principal) throws -> [String] {
        try AccessDenied.unless(principal, may: .readAll)
        return try store.targets(of: key)
    }

    /// Adds and removes keys in one change; every bad key is reported as `add[2]` or `remove[0]`.
    public func change(_ key: String, adding: [String], removing: [String], readErrors: [FieldError] = [], by principal: Principal) throws -> TargetChange {
        try AccessDenied.unless(principal, may: .editFixes)
        var errors = readErrors
        if adding.isEmpty && removing.isEmpty && !errors.contains(where: { $0.field.hasPrefix("add") || $0.field.hasPrefix("remove") }) {
            errors.append(FieldError(field: "add", message: "give targeting keys to add or to remove (\"add\": [...], \"remove\": [...])"))
        }
        for (field, keys) in [("add", adding), ("remove", removing)] {
            if keys.count > TargetService.maxKeysPerChange {
                errors.append(FieldError(field: field, message: "at most \(TargetService.maxKeysPerChange) keys per request, got \(keys.count)"))
            }
            for (index, key) in keys.enumerated() {
                if let problem = TargetService.problem(with: key) { errors.append(FieldError(field: "\(field)[\(index)]", message: problem)) }
            }
        }
        if !errors.isEmpty { throw ValidationFailure(errors) }
        return try store.changeTargets(of: key, adding: adding, removing: removing, by: Requester(principal), at: clock())
    }

    /// What is wrong with a targeting key, or nil when it is acceptable.
    public static func problem(with key: String) -> String? {
        if key.isEmpty { return "must not be empty" }
        if key.count > maxKeyLength { return "must be at most \(maxKeyLength) characters, got \(key.count)" }
        if key.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return "must not contain control characters" }
        return nil
    }
}
