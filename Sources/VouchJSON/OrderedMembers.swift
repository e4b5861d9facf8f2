/// Named values kept in insertion order, with a hash index from each name to its position.
///
/// Building n members and looking each one up costs O(n) hashes overall: a request body with
/// thousands of members must not cost n² string comparisons (as a linear scan per member would).
/// Names are unique; Swift's `Hasher` is seeded per process, so a client cannot choose names
/// that collide. Generic over the name so that tests can count the hashing and comparing done.
struct OrderedMembers<Name: Hashable, Value> {
    private(set) var members: [(key: Name, value: Value)] = []
    private var positions: [Name: Int] = [:]

    init() {}

    /// Room for `capacity` members, so that building them grows neither the list nor the index.
    init(reservingCapacity capacity: Int) {
        members.reserveCapacity(capacity)
        positions.reserveCapacity(capacity)
    }

    var count: Int { members.count }

    subscript(name: Name) -> Value? {
        guard let position = positions[name] else { return nil }
        return members[position].value
    }

    /// A name that appears twice among members given at once, and where it appears the second time.
    struct RepeatedName: Error {
        var position: Int
    }

    /// Indexes members gathered beforehand in one pass, the index sized once: a parser knows the count only at the end.
    init(indexing members: [(key: Name, value: Value)]) throws(RepeatedName) {
        var positions = [Name: Int](minimumCapacity: members.count)
        for (position, member) in members.enumerated() where positions.updateValue(position, forKey: member.key) != nil {
            throw RepeatedName(position: position)
        }
        self.members = members
        self.positions = positions
    }

    /// Replaces the value of a present name in place, or appends a new member.
    mutating func set(_ name: Name, _ value: Value) {
        if let position = positions[name] {
            members[position].value = value
        } else {
            positions[name] = members.count
            members.append((key: name, value: value))
        }
    }

    /// Removes the member; the members after it move up one place.
    mutating func remove(_ name: Name) {
        guard let position = positions.removeValue(forKey: name) else { return }
        members.remove(at: position)
        for later in position..<members.count { positions[members[later].key] = later }
    }
}

extension OrderedMembers: Sendable where Name: Sendable, Value: Sendable {}

extension OrderedMembers: Equatable where Value: Equatable {
    /// Same names with equal values in the same order.
    static func == (lhs: OrderedMembers, rhs: OrderedMembers) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}
