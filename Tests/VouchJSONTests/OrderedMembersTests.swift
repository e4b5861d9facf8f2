import Testing
@testable import VouchJSON

/// Counts the hashing and comparing that names do, so that a test can measure work without a clock.
private final class WorkCounter {
    var hashes = 0
    var comparisons = 0
    var total: Int { hashes + comparisons }
}

private struct CountedName: Hashable {
    let text: String
    let counter: WorkCounter

    static func == (lhs: CountedName, rhs: CountedName) -> Bool {
        lhs.counter.comparisons += 1
        return lhs.text == rhs.text
    }

    func hash(into hasher: inout Hasher) {
        counter.hashes += 1
        hasher.combine(text)
    }
}

@Suite struct OrderedMembersTests {
    /// What the parser and a reader do with an object of `count` members: index them (refusing a repeat),
    /// then look each one up; or, as code building an object does, set them one by one.
    private func work(members count: Int, oneByOne: Bool) throws -> Int {
        let counter = WorkCounter()
        let names = (0..<count).map { CountedName(text: "member-\($0)", counter: counter) }
        var members = OrderedMembers<CountedName, Int>()
        if oneByOne {
            for (position, name) in names.enumerated() { members.set(name, position) }
        } else {
            members = try OrderedMembers(indexing: names.enumerated().map { (key: $1, value: $0) })
            #expect(throws: OrderedMembers<CountedName, Int>.RepeatedName.self) {
                try OrderedMembers(indexing: names.enumerated().map { (key: $1, value: $0) } + [(key: names[count / 2], value: -1)])
            }
        }
        for (position, name) in names.enumerated() { #expect(members[name] == position) }
        #expect(members.count == count)
        return counter.total
    }

    @Test(arguments: [false, true])
    func buildingAndReadingGrowsLinearly(oneByOne: Bool) throws {
        let small = try work(members: 800, oneByOne: oneByOne)
        let large = try work(members: 6_400, oneByOne: oneByOne)
        // Eight times the members: linear work grows about 8×, a scan per member 64×; a scan costs thousands per member.
        let ratio = Double(large) / Double(small)
        #expect(ratio < 12, "8× the members cost \(ratio)× the work (\(small) → \(large) hashes and comparisons)")
        #expect(large < 20 * 6_400, "\(large) hashes and comparisons for 6,400 members")
    }

    @Test func removingKeepsTheOthersFindable() {
        var members = OrderedMembers<String, Int>()
        for (position, name) in ["a", "b", "c", "d"].enumerated() { members.set(name, position) }
        members.remove("b")
        members.remove("missing")
        #expect(members.members.map(\.key) == ["a", "c", "d"])
        #expect(members["a"] == 0 && members["b"] == nil && members["c"] == 2 && members["d"] == 3)
        members.set("b", 9)
        #expect(members.members.map(\.key) == ["a", "c", "d", "b"])
        #expect(members["b"] == 9)
    }

    @Test func aRepeatedNameIsRefusedWhereItRepeats() throws {
        let repeated = try #require(throws: OrderedMembers<String, Int>.RepeatedName.self) {
            try OrderedMembers(indexing: [(key: "a", value: 1), (key: "b", value: 2), (key: "a", value: 3)])
        }
        #expect(repeated.position == 2)
    }
}
