import Foundation
import Testing
@testable import VouchStore

/// The binary carries its migrations; they must be exactly the files in `Schema/`.
struct EmbeddedMigrationsTests {
    static let schemaDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Schema")

    @Test func embeddedTextEqualsSchemaFiles() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.schemaDirectory.path).filter { $0.hasSuffix(".sql") }.sorted()
        #expect(files == EmbeddedMigrations.all.map(\.fileName), "run scripts/embed-migrations after changing Schema/")
        for migration in EmbeddedMigrations.all {
            let text = try String(contentsOf: Self.schemaDirectory.appendingPathComponent(migration.fileName), encoding: .utf8)
            #expect(migration.sql + "\n" == text, "Schema/\(migration.fileName) differs from the embedded copy; run scripts/embed-migrations")
        }
    }

    @Test func versionsAreConsecutiveFromOne() {
        #expect(EmbeddedMigrations.all.map(\.version) == Array(1...EmbeddedMigrations.all.count))
    }
}
