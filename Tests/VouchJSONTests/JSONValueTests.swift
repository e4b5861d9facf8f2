import Testing
import VouchJSON

@Suite struct JSONValueTests {
    @Test func factories() {
        #expect(JSONValue.int(3) == .number(3))
        #expect(JSONValue.optional(nil) == .null)
        #expect(JSONValue.optional("a") == .string("a"))
        #expect(JSONValue.strings(["a", "b"]) == .array([.string("a"), .string("b")]))
    }

    @Test func typedAccessors() {
        #expect(JSONValue.string("a").stringValue == "a")
        #expect(JSONValue.number(1).stringValue == nil)
        #expect(JSONValue.bool(false).boolValue == false)
        #expect(JSONValue.null.boolValue == nil)
        #expect(JSONValue.number(2.5).doubleValue == 2.5)
        #expect(JSONValue.array([.null]).arrayValue == [.null])
        #expect(JSONValue.object(["a": .null]).objectValue?.keys == ["a"])
        #expect(JSONValue.null.isNull)
        #expect(!JSONValue.bool(false).isNull)
    }

    @Test(arguments: [(3.0, 3 as Int?), (-12.0, -12), (0.0, 0), (3.5, nil), (1e16, nil), (.nan, nil), (.infinity, nil)])
    func intValueOnlyForExactWholeNumbers(number: Double, expected: Int?) {
        #expect(JSONValue.number(number).intValue == expected)
    }

    @Test func intValueOfNonNumbersIsNil() {
        #expect(JSONValue.string("3").intValue == nil)
    }

    @Test func subscriptReadsObjectsOnly() {
        let value: JSONValue = .object(["a": .int(1)])
        #expect(value["a"] == .int(1))
        #expect(value["b"] == nil)
        #expect(JSONValue.array([.int(1)])["a"] == nil)
    }

    @Test(arguments: [
        (JSONValue.null, "null"), (.bool(true), "a boolean"), (.number(1), "a number"),
        (.string(""), "a string"), (.array([]), "an array"), (.object([:]), "an object"),
    ])
    func typeNames(value: JSONValue, expected: String) {
        #expect(value.typeName == expected)
    }
}
