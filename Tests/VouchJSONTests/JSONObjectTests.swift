import Testing
import VouchJSON

@Suite struct JSONObjectTests {
    @Test func literalKeepsOrder() {
        let object: JSONObject = ["z": .int(1), "a": .int(2), "m": .int(3)]
        #expect(object.keys == ["z", "a", "m"])
    }

    @Test func settingAMemberReplacesItInPlace() {
        var object: JSONObject = ["a": .int(1), "b": .int(2)]
        object["a"] = .string("x")
        #expect(object.keys == ["a", "b"])
        #expect(object["a"] == .string("x"))
    }

    @Test func settingANewMemberAppends() {
        var object: JSONObject = ["a": .int(1)]
        object["b"] = .null
        #expect(object.keys == ["a", "b"])
        #expect(object["b"] == .null)
    }

    @Test func settingNilRemoves() {
        var object: JSONObject = ["a": .int(1), "b": .int(2)]
        object["a"] = nil
        object["missing"] = nil
        #expect(object.keys == ["b"])
        #expect(object["a"] == nil)
    }

    @Test func equalityIsOrderSensitive() {
        let first: JSONObject = ["a": .int(1), "b": .int(2)]
        #expect(first == JSONObject([(key: "a", value: .int(1)), (key: "b", value: .int(2))]))
        #expect(first != ["b": .int(2), "a": .int(1)])
        #expect(first != ["a": .int(1)])
        #expect(first != ["a": .int(1), "b": .int(3)])
    }
}

@Suite struct JSONObjectNameTests {
    @Test func aRepeatedNameInTheInitialiserKeepsItsPlaceAndTheLastValue() {
        let object = JSONObject([(key: "a", value: .int(1)), (key: "b", value: .int(2)), (key: "a", value: .int(3))])
        #expect(object.keys == ["a", "b"])
        #expect(object["a"] == .int(3))
    }

    @Test func mergeReplacesAndAppends() {
        var object: JSONObject = ["a": .int(1), "b": .int(2)]
        object.merge(["b": .int(20), "c": .int(30)])
        #expect(object == ["a": .int(1), "b": .int(20), "c": .int(30)])
    }

    @Test func everyMemberOfALargeObjectIsFoundAfterRemovals() {
        var object = JSONObject((0..<2_000).map { (key: "k\($0)", value: JSONValue.int($0)) })
        for removed in stride(from: 0, to: 2_000, by: 3) { object["k\(removed)"] = nil }
        for number in 0..<2_000 {
            #expect(object["k\(number)"] == (number % 3 == 0 ? nil : .int(number)))
        }
        #expect(object.keys.count == 2_000 - 667)
    }
}
