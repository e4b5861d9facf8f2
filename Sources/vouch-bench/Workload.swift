import VouchDomain

/// SplitMix64: a small deterministic generator, so every run (and `populate` and `inprocess`) sees the same data.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The benchmark's data: `fixCount` fixes in a realistic mix of states and `targetCount` (fix, targeting key) pairs.
///
/// Mix: 73 % testing, 1 % promoting, 1 % promotion_failed, 5 % releasing (at 1–50 %), 12 % released,
/// 3 % draft, 3 % paused, 1 % rolled_back, 1 % abandoned. Targets go to every fix but drafts and abandoned ones,
/// 1 to about twice the average per fix. Targeting keys are UUID-shaped (36 characters, as app user ids usually are),
/// drawn from a population of `targetCount / 4` users, so a user is targeted by about four fixes.
struct Workload {
    static let mix: [(state: FixState, percent: Int)] = [
        (.testing, 73), (.promoting, 1), (.promotionFailed, 1), (.releasing, 5), (.released, 12),
        (.draft, 3), (.paused, 3), (.rolledBack, 1), (.abandoned, 1),
    ]
    static let areas = ["channel-selector", "player-controls", "login-form", "settings", "search", "epg-grid", "profile-picker",
                        "onboarding", "checkout", "subtitles-menu", "home-rail", "downloads", "notifications", "parental-pin"]
    static let platforms = ["ios", "android", "web"]
    static let rolloutSteps = [1, 2, 5, 10, 20, 50]

    let fixCount: Int
    let targetCount: Int
    let rules: [FlagRule]
    /// The state a paused fix was paused from.
    let pausedFrom: [String: FixState]
    /// Every targeting key that exists, targeted or not.
    let population: [String]

    init(fixCount: Int, targetCount: Int, seed: UInt64 = 0x566F_7563_6842_656E) {
        self.fixCount = fixCount
        self.targetCount = targetCount
        var random = SplitMix64(seed: seed)
        let population = (0..<max(1, targetCount / 4)).map { _ in Workload.uuid(&random) }

        var states: [FixState] = []
        states.reserveCapacity(fixCount)
        for (state, percent) in Workload.mix {
            states.append(contentsOf: repeatElement(state, count: fixCount * percent / 100))
        }
        while states.count < fixCount { states.append(.testing) }
        states.shuffle(using: &random)

        // Spread the targets over the fixes that can carry them, with uneven counts, summing to targetCount exactly.
        let carriers = states.indices.filter { states[$0] != .draft && states[$0] != .abandoned }
        var counts = [Int](repeating: 0, count: fixCount)
        let average = Double(targetCount) / Double(max(1, carriers.count))
        var remaining = targetCount
        for (position, index) in carriers.enumerated() {
            let left = carriers.count - position
            let count = left == 1 ? remaining : min(remaining, Int.random(in: 1...max(1, Int(2 * average - 1)), using: &random))
            counts[index] = max(0, min(count, population.count))
            remaining -= counts[index]
        }
        var index = 0
        while remaining > 0 && !carriers.isEmpty {
            let carrier = carriers[index % carriers.count]
            if counts[carrier] < population.count {
                counts[carrier] += 1
                remaining -= 1
            }
            index += 1
        }

        var rules: [FlagRule] = []
        rules.reserveCapacity(fixCount)
        var pausedFrom: [String: FixState] = [:]
        // Five digits up to 100,000 fixes (today's keys), more beyond, so the 100× scale of part 12 has no key twice.
        let digits = max(5, String(max(0, fixCount - 1)).count)
        for number in 0..<fixCount {
            let platform = Workload.platforms[Int.random(in: 0..<Workload.platforms.count, using: &random)]
            let area = Workload.areas[Int.random(in: 0..<Workload.areas.count, using: &random)]
            let key = "\(platform).\(area).fix-\(Workload.padded(number, digits))"
            var targets = Set<String>(minimumCapacity: counts[number])
            while targets.count < counts[number] {
                targets.insert(population[Int.random(in: 0..<population.count, using: &random)])
            }
            let state = states[number]
            let percentage = state == .releasing ? Workload.rolloutSteps[Int.random(in: 0..<Workload.rolloutSteps.count, using: &random)] : 0
            if state == .paused { pausedFrom[key] = .testing }
            rules.append(FlagRule(key: key, state: state, revision: Int.random(in: 1...3, using: &random),
                                  targetedKeys: targets, rolloutPercentage: percentage))
        }
        self.rules = rules
        self.pausedFrom = pausedFrom
        self.population = population
    }

    /// `number` in decimal with leading zeros up to `digits`.
    static func padded(_ number: Int, _ digits: Int) -> String {
        let text = String(number)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    static func uuid(_ random: inout SplitMix64) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(36)
        for position in 0..<32 {
            if position == 8 || position == 12 || position == 16 || position == 20 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(digits[Int(random.next() & 15)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    var actualTargetCount: Int { rules.reduce(0) { $0 + $1.targetedKeys.count } }

    func count(_ state: FixState) -> Int { rules.count(where: { $0.state == state }) }
}
