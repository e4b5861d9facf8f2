#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A migration's file name, `NNNN_name.sql`: four digits for the version, then a name of `a-z`, `0-9` and `_`.
struct MigrationFile: Equatable {
    var fileName: String
    var version: Int
    var name: String

    init(fileName: String, folder: String = "Schema") throws {
        // Scalars, not Characters: "a" followed by a combining accent is one Character that sorts between "a" and "z".
        let stem = fileName.unicodeScalars.dropLast(".sql".count)
        let digits = stem.prefix(4)
        let name = stem.dropFirst(5)
        guard fileName.hasSuffix(".sql"), digits.count == 4, digits.allSatisfy(Self.isDigit),
            stem.dropFirst(4).first == "_", !name.isEmpty, name.allSatisfy({ ("a"..."z").contains($0) || Self.isDigit($0) || $0 == "_" }),
            let version = Int(String(digits)), version >= 1
        else {
            throw EmbedError("\(folder)/\(fileName): a migration's file name is NNNN_name.sql: four digits from 0001, '_', then a name of a-z, 0-9 and _")
        }
        self.fileName = fileName
        self.version = version
        self.name = String(name)
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }

    /// Every `.sql` file in the directory, in version order; versions must run 1, 2, 3… with none twice.
    static func all(in directory: String, named label: String = "Schema") throws -> [MigrationFile] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw EmbedError("cannot list \(directory): \(error)")
        }
        let files = try names.filter { $0.hasSuffix(".sql") }.map { try MigrationFile(fileName: $0, folder: label) }.sorted { ($0.version, $0.fileName) < ($1.version, $1.fileName) }
        for (index, file) in files.enumerated() where file.version != index + 1 {
            if index > 0, files[index - 1].version == file.version {
                throw EmbedError("\(label)/\(files[index - 1].fileName) and \(label)/\(file.fileName) share version \(file.version); "
                    + "give the one not yet released the next free version")
            }
            throw EmbedError("\(label)/ has no migration \(index + 1) before \(label)/\(file.fileName); versions must run 1, 2, 3… without gaps")
        }
        return files
    }
}
