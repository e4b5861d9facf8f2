extension PrincipalName {
    /// Why a character of a name is refused, in words for the error; nil when it may stand in a name.
    ///
    /// A name is read by people deciding who approved what, so anything that shows as nothing, as a blank, or
    /// not at all in most fonts is refused rather than cleaned: a name that hides characters is a warning sign.
    static func refusal(of scalar: Unicode.Scalar) -> String? {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .control:
            return "a control character"
        case .format, .lineSeparator, .paragraphSeparator:
            return "an invisible character"
        case .unassigned, .privateUse, .surrogate:
            return "a character with no agreed look (unassigned or private use)"
        case .spaceSeparator where scalar != " ":
            return "a space other than the ordinary space"
        default:
            break
        }
        if properties.isDefaultIgnorableCodePoint { return "an invisible character" }
        if properties.isWhitespace, scalar != " " { return "a space other than the ordinary space" }
        if blank.contains(scalar.value) { return "a character that shows as a blank" }
        return nil
    }

    /// Letters and symbols that show as an empty space yet are not whitespace in Unicode's data: the braille blank,
    /// the Hangul fillers (default-ignorable in Unicode's data, listed again because that property has changed for
    /// them between versions) and the null notehead, a musical symbol drawn as nothing.
    static let blank: Set<UInt32> = [
        0x2800,  // BRAILLE PATTERN BLANK
        0x115F, 0x1160, 0x3164, 0xFFA0,  // HANGUL CHOSEONG FILLER, JUNGSEONG FILLER, HANGUL FILLER, HALFWIDTH HANGUL FILLER
        0x1D159,  // MUSICAL SYMBOL NULL NOTEHEAD
    ]

    /// Whether the scalar is a combining mark, which draws on the character before it.
    static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    /// The first reason `text` cannot be a name, worded for the error; nil when every character may stand in one.
    static func characterProblem(in text: String) -> String? {
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            if let reason = refusal(of: scalar) {
                return "contains \(describe(scalar)), \(reason)"
            }
            // A mark with nothing to draw on shows as a lone accent, a dotted circle or nothing at all.
            if isMark(scalar), previous == nil || previous == " " {
                return "contains \(describe(scalar)), a combining mark with no letter before it"
            }
            previous = scalar
        }
        return nil
    }

    /// `U+2800 BRAILLE PATTERN BLANK`.
    static func describe(_ scalar: Unicode.Scalar) -> String {
        let code = String(scalar.value, radix: 16, uppercase: true)
        let name = scalar.properties.name ?? scalar.properties.nameAlias
        return "U+" + String(repeating: "0", count: max(0, 4 - code.count)) + code + (name.map { " " + $0 } ?? "")
    }

    /// The text with spaces at either end removed and each run of spaces inside made one: `rita  smith` and
    /// `rita smith` show alike in HTML, so they are one name.
    static func collapsingSpaces(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
}
