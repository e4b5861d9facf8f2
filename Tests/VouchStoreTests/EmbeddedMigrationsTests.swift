import Foundation
import Testing
@testable import VouchStore

/// The binary carries its migrations, compiled in by the EmbedMigrations plugin; they must be exactly the files in
/// `Schema/`, read here from the source tree, so a plugin that dropped, reordered or altered a file fails.
struct EmbeddedMigrationsTests {
    static let schemaDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Schema")

    @Test(arguments: [SQLDialect.sqlite, .postgres])
    func embeddedTextEqualsSchemaFiles(dialect: SQLDialect) throws {
        let folder = Self.schemaDirectory.appendingPathComponent(dialect.rawValue)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sql") }.sorted()
        let embedded = EmbeddedMigrations.all(for: dialect)
        #expect(files == embedded.map(\.fileName), "the EmbedMigrations plugin did not embed every file in Schema/\(dialect.rawValue)/")
        for migration in embedded {
            let text = try String(contentsOf: folder.appendingPathComponent(migration.fileName), encoding: .utf8)
            #expect(migration.sql == text, "Schema/\(dialect.rawValue)/\(migration.fileName) differs from the embedded copy")
        }
    }

    @Test(arguments: [SQLDialect.sqlite, .postgres])
    func versionsAreConsecutiveFromOne(dialect: SQLDialect) {
        let embedded = EmbeddedMigrations.all(for: dialect)
        #expect(embedded.map(\.version) == Array(1...embedded.count))
    }
}
