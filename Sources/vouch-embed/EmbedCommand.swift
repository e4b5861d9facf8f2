#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns repository text files into Swift source, so the binaries carry them and need no source tree.
///
/// `vouch-embed openapi DOCUMENT OUTPUT` writes `OpenAPIDocument.json`;
/// `vouch-embed migrations SCHEMA_DIRECTORY OUTPUT MARKER` writes `EmbeddedMigrations.all`, then rewrites MARKER,
/// the build's input that makes SwiftPM run it again next time (see Plugins/EmbedMigrations);
/// `vouch-embed messages CATALOG_DIRECTORY OUTPUT` writes `MessageKey` and each language's texts (see `MessageCatalog`);
/// `vouch-embed consent DIRECTORY OUTPUT` writes `EmbeddedConsentTexts.files`, each consent text's file name and text.
enum EmbedCommand {
    static let usage = "Usage: vouch-embed openapi DOCUMENT OUTPUT | vouch-embed migrations SCHEMA_DIRECTORY OUTPUT MARKER"
        + " | vouch-embed messages CATALOG_DIRECTORY OUTPUT | vouch-embed consent DIRECTORY OUTPUT"

    static func run(arguments: [String]) throws {
        switch (arguments.first, arguments.count) {
        case ("openapi", 3):
            try TextFile.writeIfChanged(try openAPIDocumentSource(documentPath: arguments[1]), to: arguments[2])
        case ("migrations", 4):
            try TextFile.writeIfChanged(try migrationsSource(schemaDirectory: arguments[1]), to: arguments[2])
            try TextFile.write("", to: arguments[3])
        case ("messages", 3):
            try TextFile.writeIfChanged(try MessageCatalog.source(MessageCatalog.all(in: arguments[1])), to: arguments[2])
        case ("consent", 3):
            try TextFile.writeIfChanged(try consentTextsSource(directory: arguments[1]), to: arguments[2])
        default:
            throw EmbedError("expected 'openapi', 'messages' or 'consent' with 2 paths or 'migrations' with 3, got: \(arguments.joined(separator: " "))\n\(usage)")
        }
    }

    static func openAPIDocumentSource(documentPath: String) throws -> String {
        let json = try TextFile.read(documentPath)
        return """
            // Generated at build time by the EmbedOpenAPIDocument plugin from openapi/vouch.openapi.json; do not edit.

            /// The OpenAPI 3.1 description of every route, served at `/v1/openapi.json`: the file's exact text.
            public enum OpenAPIDocument {
                public static let json = \(RawStringLiteral(json).source)
            }

            """
    }

    static func consentTextsSource(directory: String) throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".txt") }.sorted()
        let entries = try names.map { name in
            "        (name: \"\(name)\", text: \(RawStringLiteral(try TextFile.read(directory + "/" + name)).source)),\n"
        }
        return """
            // Generated at build time by the EmbedConsentTexts plugin from Catalogs/consent/*.txt; do not edit.

            /// The consent texts built in, each file's name (`2026-12.en.txt`) and exact text (docs/invitations.md).
            package enum EmbeddedConsentTexts {
                package static let files: [(name: String, text: String)] = [
            \(entries.joined())    ]
            }

            """
    }

    /// The dialects with a folder of their own under `Schema/`, and the property each becomes.
    static let dialects = ["sqlite", "postgres"]

    static func migrationsSource(schemaDirectory: String) throws -> String {
        let lists = try dialects.map { dialect in
            let directory = schemaDirectory + "/" + dialect
            let files = try MigrationFile.all(in: directory, named: "Schema/\(dialect)")
            let entries = try files.map { file in
                let sql = try TextFile.read(directory + "/" + file.fileName)
                return "        Migration(version: \(file.version), name: \"\(file.name)\", sql: \(RawStringLiteral(sql).source)),\n"
            }
            return """
                    /// Every migration in `Schema/\(dialect)/`, in version order, each with its file's exact text.
                    public static let \(dialect): [Migration] = [
                \(entries.joined())    ]

                """
        }
        return """
            // Generated at build time by the EmbedMigrations plugin from Schema/*/*.sql; do not edit.

            /// The migrations of each database, one folder per dialect under `Schema/`.
            public enum EmbeddedMigrations {
            \(lists.joined(separator: "\n"))}

            """
    }
}
