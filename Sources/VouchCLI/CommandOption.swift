import Foundation

/// One `--name` option of a command, as the parser reads it and the help shows it.
struct CommandOption: Sendable {
    enum Kind: Sendable, Equatable {
        /// Present or absent, such as `--json`.
        case flag
        /// One value, such as `--title <text>`; giving it twice is a mistake.
        case single
        /// Repeatable, and each value may hold several separated by commas, such as `--platform ios,android`.
        case list
    }

    /// The name without dashes, such as `ui-area`.
    var name: String
    var aliases: [String] = []
    var kind: Kind
    var valueName: String = ""
    var help: String
    var isRequired = false
    /// A required option that a person at a terminal is asked for instead; the command checks it, not the parser.
    var isAskedWhenMissing = false
    /// The values an enumerated option accepts; given values are lowercased and `-` read as `_` first.
    var allowedValues: [String] = []
    /// The bounds of a whole-number option.
    var range: ClosedRange<Int>?

    static func flag(_ name: String, help: String) -> CommandOption {
        CommandOption(name: name, kind: .flag, help: help)
    }

    static func single(_ name: String, _ valueName: String, help: String, required: Bool = false, aliases: [String] = [],
                       allowed: [String] = [], range: ClosedRange<Int>? = nil) -> CommandOption {
        CommandOption(name: name, aliases: aliases, kind: .single, valueName: valueName, help: help, isRequired: required,
                      allowedValues: allowed, range: range)
    }

    /// A required single-value option that is asked for on a terminal when missing.
    static func asked(_ name: String, _ valueName: String, help: String, allowed: [String] = []) -> CommandOption {
        CommandOption(name: name, kind: .single, valueName: valueName, help: help, isRequired: true, isAskedWhenMissing: true, allowedValues: allowed)
    }

    static func list(_ name: String, _ valueName: String, help: String, required: Bool = false, allowed: [String] = [],
                     range: ClosedRange<Int>? = nil) -> CommandOption {
        CommandOption(name: name, kind: .list, valueName: valueName, help: help, isRequired: required, allowedValues: allowed, range: range)
    }

    /// `--name` as typed.
    var spelledName: String { "--" + name }

    /// Every way to type the option, the main name first.
    var spellings: [String] { ([name] + aliases).map { "--" + $0 } }

    /// `--title <text>` or `--json`: the option with its value, for messages.
    var valueSynopsis: String { kind == .flag ? spelledName : "\(spelledName) <\(valueName)>" }

    /// `--title <text>`, `--platform <platform> ...` or `--json`, for usage lines.
    var synopsis: String {
        switch kind {
        case .flag: spelledName
        case .single: "\(spelledName) <\(valueName)>"
        case .list: "\(spelledName) <\(valueName)> ..."
        }
    }

    /// Checks one value and returns it in the form sent to the server.
    func accept(_ value: String, commandPath: [String]) throws(UsageError) -> String {
        if !allowedValues.isEmpty {
            // Most of the API's names are snake_case and typed with either separator; a few (`github-dispatch`) are
            // kebab-case, and are taken with either too.
            let lowered = value.lowercased()
            for spelling in [lowered.replacingOccurrences(of: "_", with: "-"), lowered.replacingOccurrences(of: "-", with: "_")]
            where allowedValues.contains(spelling) {
                return spelling
            }
            let normalized = lowered.replacingOccurrences(of: "-", with: "_")
            guard allowedValues.contains(normalized) else {
                let suggestion = Suggestion.sentence(for: normalized, among: allowedValues)
                throw UsageError("Invalid value '\(value)' for '\(spelledName) <\(valueName)>'.\(suggestion) Allowed: \(allowedValues.joined(separator: ", ")).",
                                 commandPath: commandPath)
            }
            return normalized
        }
        if let range {
            guard value.allSatisfy(\.isASCII), let number = Int(value), range.contains(number) else {
                throw UsageError("Invalid value '\(value)' for '\(spelledName) <\(valueName)>': give a whole number from \(range.lowerBound) to \(range.upperBound).",
                                 commandPath: commandPath)
            }
            return String(number)
        }
        return value
    }
}
