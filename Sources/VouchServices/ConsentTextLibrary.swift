import Foundation
import VouchDomain

/// The consent texts a tester may be shown, one file per version and language (`2026-12.ja.txt`): those built into
/// vouchd from `Catalogs/consent/`, or an operator's own from `consent.texts_directory`, which then replace them
/// all. She is shown the newest version, which must exist in every language she can choose (docs/invitations.md,
/// "Consent texts").
public struct ConsentTextLibrary: Sendable {
    /// A file that cannot serve as a consent text, named with what is wrong.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Templates by version, then language.
    let templates: [String: [String: String]]
    /// The version a tester is shown now: the newest.
    public let currentVersion: String
    public let languages: [String]

    /// The texts built into this binary, in the console's languages; checked by the tests, so never missing.
    public static let standard = try! builtIn(languages: InvitationService.languages)

    /// The texts built into this binary.
    public static func builtIn(languages: [String]) throws(Problem) -> ConsentTextLibrary {
        try ConsentTextLibrary(files: EmbeddedConsentTexts.files, source: "Catalogs/consent", languages: languages)
    }

    /// An operator's texts: every `VERSION.LANGUAGE.txt` file in `directory`.
    public static func load(directory: String, languages: [String]) throws(Problem) -> ConsentTextLibrary {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".txt") }.sorted()
        } catch {
            throw Problem(description: "consent.texts_directory: cannot read the directory \(directory)")
        }
        var files: [(name: String, text: String)] = []
        for name in names {
            guard let data = FileManager.default.contents(atPath: directory + "/" + name), let text = String(data: data, encoding: .utf8) else {
                throw Problem(description: "consent.texts_directory: \(name) cannot be read as UTF-8 text")
            }
            files.append((name, text))
        }
        return try ConsentTextLibrary(files: files, source: directory, languages: languages)
    }

    init(files: [(name: String, text: String)], source: String, languages: [String]) throws(Problem) {
        var templates: [String: [String: String]] = [:]
        for file in files {
            let parts = file.name.dropLast(".txt".count).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard parts.count >= 2, let language = parts.last, languages.contains(language) else {
                throw Problem(description: "\(source)/\(file.name): a consent text's file is named VERSION.LANGUAGE.txt, "
                              + "with LANGUAGE one of \(languages.joined(separator: ", ")), such as 2026-12.en.txt")
            }
            let version = parts.dropLast().joined(separator: ".")
            guard ConsentText.isValidVersion(version) else {
                throw Problem(description: "\(source)/\(file.name): the version must be \(ConsentText.versionRule)")
            }
            let probe = ConsentText(version: version, language: language, template: file.text, operatorName: "x", operatorContact: "x")
            guard probe.blocks.contains(where: { if case .paragraph = $0 { true } else { false } }) else {
                throw Problem(description: "\(source)/\(file.name): the text has no paragraph to show")
            }
            templates[version, default: [:]][language] = file.text
        }
        guard let newest = templates.keys.max(by: { $0.compare($1, options: .numeric) == .orderedAscending }) else {
            throw Problem(description: "\(source): no consent text (VERSION.LANGUAGE.txt) was found")
        }
        let missing = languages.filter { templates[newest]?[$0] == nil }
        guard missing.isEmpty else {
            throw Problem(description: "\(source): the newest consent text, version \(newest), is missing in "
                          + missing.joined(separator: ", ") + ": add " + missing.map { "\(newest).\($0).txt" }.joined(separator: ", "))
        }
        self.templates = templates
        self.currentVersion = newest
        self.languages = languages
    }

    /// The current text in a language, as she reads it.
    public func current(language: String, for programmeOperator: ProgrammeOperator) -> ConsentText {
        text(version: currentVersion, language: language, for: programmeOperator)!
    }

    /// A version's text in a language, or nil when there is no such file.
    public func text(version: String, language: String, for programmeOperator: ProgrammeOperator) -> ConsentText? {
        guard let template = templates[version]?[language] else { return nil }
        return ConsentText(version: version, language: language, template: template, operatorName: programmeOperator.name,
                           operatorContact: programmeOperator.contact)
    }
}
