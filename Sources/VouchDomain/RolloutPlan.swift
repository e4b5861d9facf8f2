import Foundation

/// A phased rollout: percentages of users, one step per interval (the App Store's phased-release ladder by default).
public struct RolloutPlan: Sendable, Equatable {
    public static let defaultSteps = [1, 2, 5, 10, 20, 50, 100]
    public static let defaultIntervalSeconds = 24 * 3_600
    /// From a second (for trials) to 90 days between steps.
    public static let intervalRange = 1...(90 * 86_400)

    public var steps: [Int]
    public var intervalSeconds: Int

    public init(steps: [Int] = RolloutPlan.defaultSteps, intervalSeconds: Int = RolloutPlan.defaultIntervalSeconds) {
        self.steps = steps
        self.intervalSeconds = intervalSeconds
    }

    /// Checks steps rise from 1 to 100 and end at 100, and the interval is positive.
    public static func validate(steps: [Int], intervalSeconds: Int) -> [FieldError] {
        var errors: [FieldError] = []
        if steps.isEmpty || !steps.allSatisfy({ (1...100).contains($0) }) || zip(steps, steps.dropFirst()).contains(where: { $0 >= $1 }) || steps.last != 100 {
            errors.append(FieldError(field: "steps", message: "must be increasing percentages from 1 to 100 ending with 100, such as 1,2,5,10,20,50,100"))
        }
        if !intervalRange.contains(intervalSeconds) {
            errors.append(FieldError(field: "interval", message: "must be a duration from 1 s to 90 d, such as 24h"))
        }
        return errors
    }

    /// The step after `percentage`, or nil when the rollout has reached everyone.
    public func step(after percentage: Int) -> Int? {
        steps.first { $0 > percentage }
    }
}
