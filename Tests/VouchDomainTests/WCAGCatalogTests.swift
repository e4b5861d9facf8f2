import Testing
import VouchDomain

@Suite struct WCAGCatalogTests {
    @Test func embeddedTableEqualsFixtureRowByRow() throws {
        let rows = try Fixture.rows("wcag22-success-criteria.tsv")
        #expect(rows.count == 87)
        #expect(WCAGCatalog.criteria.count == rows.count)
        for (position, (criterion, row)) in zip(WCAGCatalog.criteria, rows).enumerated() {
            #expect([criterion.number, criterion.name, criterion.level] == row, "row \(position + 1)")
        }
    }

    @Test func lookupByNumber() throws {
        let criterion = try #require(WCAGCatalog.criterion("4.1.2"))
        #expect(criterion.name == "Name, Role, Value")
        #expect(criterion.level == "A")
        #expect(WCAGCatalog.criterion("9.9.9") == nil)
    }

    @Test func currentCriteriaAreAccepted() {
        #expect(WCAGCatalog.validate(["1.1.1", "2.4.3", "4.1.2", "2.5.8"], field: "wcag").isEmpty)
        #expect(WCAGCatalog.validate([], field: "wcag").isEmpty)
    }

    @Test func obsoleteParsingIsRefusedWithAReason() throws {
        let errors = WCAGCatalog.validate(["4.1.2", "4.1.1"], field: "wcag")
        let error = try #require(errors.first)
        #expect(errors.count == 1)
        #expect(error.field == "wcag[1]")
        #expect(error.message.contains("4.1.1"))
        #expect(error.message.contains("removed from WCAG 2.2"))
        #expect(error.message.contains("4.1.2"))
    }

    @Test(arguments: ["9.9.9", "1.1", "", "1.1.1.1", "SC 1.1.1", "4.1.4"])
    func unknownNumberIsRefusedByIndex(number: String) throws {
        let errors = WCAGCatalog.validate(["1.1.1", number], field: "wcag")
        let error = try #require(errors.first)
        #expect(errors.count == 1)
        #expect(error.field == "wcag[1]")
        #expect(error.message.contains("'\(number)' is not a WCAG 2.2 success criterion"))
    }

    @Test func everyBadNumberIsReported() {
        let errors = WCAGCatalog.validate(["x", "1.1.1", "4.1.1"], field: "feedback.wcag")
        #expect(errors.map(\.field) == ["feedback.wcag[0]", "feedback.wcag[2]"])
    }

    @Test func normalizedIsInWCAGOrderWithoutRepeats() {
        #expect(WCAGCatalog.normalized(["4.1.2", "1.4.10", "1.1.1", "4.1.2", "1.4.9"]) == ["1.1.1", "1.4.9", "1.4.10", "4.1.2"])
        #expect(WCAGCatalog.normalized([]) == [])
    }
}
