import Foundation
import Testing
@testable import VouchStore

/// The binary carries its migrations, compiled in by the EmbedMigrations plugin; they must be exactly the files in
/// `Schema/`, read here from the source tree, so a plugin that dropped, reordered or altered a file fails.
struct EmbeddedMigrationsTests {
    static let schemaDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Schema")

    @Test func embeddedTextEqualsSchemaFiles() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.schemaDirectory.path).filter { $0.hasSuffix(".sql") }.sorted()
        #expect(files == EmbeddedMigrations.all.map(\.fileName), "the EmbedMigrations plugin did not embed every file in Schema/")
        for migration in EmbeddedMigrations.all {
            let text = try String(contentsOf: Self.schemaDirectory.appendingPathComponent(migration.fileName), encoding: .utf8)
            #expect(migration.sql == text, "Schema/\(migration.fileName) differs from the embedded copy")
        }
    }

    @Test func versionsAreConsecutiveFromOne() {
        #expect(EmbeddedMigrations.all.map(\.version) == Array(1...EmbeddedMigrations.all.count))
    }
}
