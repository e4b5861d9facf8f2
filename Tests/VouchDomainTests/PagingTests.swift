import Testing
import VouchDomain

@Suite struct PagingTests {
    @Test func missingLimitIsTheDefault() throws {
        #expect(try Paging.limit(from: nil) == 50)
    }

    @Test(arguments: [("1", 1), ("50", 50), ("500", 500)])
    func acceptsLimitsInRange(text: String, expected: Int) throws {
        #expect(try Paging.limit(from: text) == expected)
    }

    @Test(arguments: ["0", "501", "-1", "", "ten", "1.5", " 5"])
    func refusesOtherLimits(text: String) throws {
        let error = try #require(throws: FieldError.self) { try Paging.limit(from: text) }
        #expect(error.field == "limit")
        #expect(error.message == "must be a whole number from 1 to 500, got '\(text)'")
    }
}
