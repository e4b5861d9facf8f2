import Foundation
import Testing
@testable import vouch_embed

/// Schema/ is read when the build runs: what it accepts, in which order, and how it says no.
struct MigrationFileTests {
    @Test func nameGivesVersionAndName() throws {
        let file = try MigrationFile(fileName: "0012_testers_feedback2.sql")
        #expect(file.version == 12)
        #expect(file.name == "testers_feedback2")
    }

    @Test(arguments: ["12_short.sql", "0000_zero.sql", "0004-dash.sql", "0004_.sql", "0004_Upper.sql", "0004_a\u{301}ccent.sql", "0004_has-dash.sql", "00004_five.sql", "abcd_letters.sql"])
    func badNamesAreRefusedWithTheRule(fileName: String) {
        #expect {
            try MigrationFile(fileName: fileName)
        } throws: { error in
            "\(error)" == "Schema/\(fileName): a migration's file name is NNNN_name.sql: four digits from 0001, '_', then a name of a-z, 0-9 and _"
        }
    }

    @Test func directoryIsListedInVersionOrderIgnoringOtherFiles() throws {
        let directory = try Self.schemaDirectory(["0002_b.sql", "0001_a.sql", "0003_c.sql", "README.md"])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try MigrationFile.all(in: directory.path).map(\.fileName) == ["0001_a.sql", "0002_b.sql", "0003_c.sql"])
    }

    @Test(arguments: [
        (["0001_a.sql", "0002_b.sql", "0002_c.sql"],
         "Schema/0002_b.sql and Schema/0002_c.sql share version 2; give the one not yet released the next free version"),
        (["0001_a.sql", "0003_c.sql"], "Schema/ has no migration 2 before Schema/0003_c.sql; versions must run 1, 2, 3… without gaps"),
    ])
    func versionsTwiceOrMissingAreRefused(fileNames: [String], message: String) throws {
        let directory = try Self.schemaDirectory(fileNames)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect {
            try MigrationFile.all(in: directory.path)
        } throws: { error in
            "\(error)" == message
        }
    }

    @Test func generatedSourceCarriesEachFileExactly() throws {
        let directory = try Self.schemaDirectory([])
        defer { try? FileManager.default.removeItem(at: directory) }
        let sqlite = try Self.schemaDirectory(["0001_a.sql", "0002_b.sql"], in: directory.appendingPathComponent("sqlite"))
        _ = try Self.schemaDirectory(["0001_p.sql"], in: directory.appendingPathComponent("postgres"))
        try "SELECT '\"#';\r\n".write(to: sqlite.appendingPathComponent("0002_b.sql"), atomically: true, encoding: .utf8)
        let source = try EmbedCommand.migrationsSource(schemaDirectory: directory.path)
        #expect(source.contains("public static let sqlite: [Migration] = [\n        Migration(version: 1, name: \"a\", sql: #\"\"\"\n-- 0001_a.sql\n\n\"\"\"#),"))
        #expect(source.contains("Migration(version: 2, name: \"b\", sql: ##\"\"\"\nSELECT '\"#';\\##u{D}\n\n\"\"\"##),"))
        #expect(source.contains("public static let postgres: [Migration] = [\n        Migration(version: 1, name: \"p\", sql: #\"\"\"\n-- 0001_p.sql\n\n\"\"\"#),"))
    }

    @Test func aDialectsFolderIsNamedInItsErrors() throws {
        let directory = try Self.schemaDirectory([])
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try Self.schemaDirectory(["0001_a.sql"], in: directory.appendingPathComponent("sqlite"))
        _ = try Self.schemaDirectory(["0002_b.sql"], in: directory.appendingPathComponent("postgres"))
        #expect {
            try EmbedCommand.migrationsSource(schemaDirectory: directory.path)
        } throws: { error in
            "\(error)" == "Schema/postgres/ has no migration 1 before Schema/postgres/0002_b.sql; versions must run 1, 2, 3… without gaps"
        }
    }

    /// A new directory holding the named files, each containing a comment with its own name.
    static func schemaDirectory(_ names: [String], in folder: URL? = nil) throws -> URL {
        let directory = folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("vouch-embed-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in names {
            try "-- \(name)\n".write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return directory
    }
}
