import Foundation
import _FoundationICU
import VouchDomain

/// A principal's name as identity: normalised so that one person cannot pass for two by spelling (docs/privacy.md and
/// docs/decisions.md, "Principals, not tokens").
///
/// - The name is NFKC case-folded (Unicode's `NFKC_Casefold`): `Rita`, `RITA` and fullwidth `Ｒｉｔａ` are one name.
/// - Default-ignorable code points (soft hyphen, zero-width space, word joiner, byte order mark…) and control
///   characters are refused rather than silently dropped: a name that hides characters is a warning sign.
/// - `skeleton` is Unicode TS #39's confusable skeleton: two names with one skeleton look alike (`rita` with a
///   Cyrillic `і`, `rn` and `m`), so the store refuses a new principal whose skeleton another one already has.
///
/// ICU does the Unicode work: the toolchain's Foundation carries it as `_FoundationICU`, with its normalisation
/// and spoof-checker data, so no library outside the toolchain is needed.
public struct PrincipalName: Sendable, Hashable, CustomStringConvertible {
    /// The normalised name, the principal's identity.
    public let value: String
    /// The TS #39 skeleton of `value`.
    public let skeleton: String

    public var description: String { value }

    /// Names the daemon itself writes as a principal, or shows in place of an erased one.
    public static let reserved: Set<String> = ["vouchd", "withdrawn", "system", "anonymous"]
    /// Tester tokens' principals are the tester's pseudonym; no other principal may look like one.
    public static let testerPrefix = "t_"
    public static let maximumLength = 100

    /// Normalises `text`; the error names `field` and says what is allowed.
    public init(_ text: String, field: String) throws(FieldError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw FieldError(field: field, message: "must not be empty: name the person or system, such as 'rita' or 'ios-app'") }
        // Checked before trimming: Foundation's whitespace set includes some invisible characters (U+200B).
        if let hidden = text.unicodeScalars.first(where: { $0.properties.isDefaultIgnorableCodePoint || $0.properties.generalCategory == .control
            || $0.properties.generalCategory == .format || $0.properties.generalCategory == .lineSeparator || $0.properties.generalCategory == .paragraphSeparator }) {
            let code = "U+" + String(hidden.value, radix: 16, uppercase: true).leftPadded(to: 4)
            throw FieldError(field: field, message: "contains an invisible or control character (\(code)); names may hold only visible characters and spaces")
        }
        guard let normalized = PrincipalName.nfkcCasefold(trimmed), let skeleton = PrincipalName.skeleton(of: normalized) else {
            throw FieldError(field: field, message: "could not be normalised: use letters, digits, spaces and punctuation")
        }
        guard normalized.count <= PrincipalName.maximumLength else {
            throw FieldError(field: field, message: "must be at most \(PrincipalName.maximumLength) characters")
        }
        value = normalized
        self.skeleton = skeleton
    }

    /// The form stored before principals existed, for names already in the database: the same normalisation, with
    /// hidden characters dropped instead of refused (they were accepted then), so old and new spellings meet.
    public static func legacy(_ text: String) -> PrincipalName {
        let visible = String(String.UnicodeScalarView(text.unicodeScalars.filter {
            !$0.properties.isDefaultIgnorableCodePoint && $0.properties.generalCategory != .control && $0.properties.generalCategory != .format
        }))
        if let name = try? PrincipalName(visible, field: "name") { return name }
        return PrincipalName(uncheckedValue: visible.lowercased())
    }

    private init(uncheckedValue: String) {
        value = uncheckedValue
        skeleton = PrincipalName.skeleton(of: uncheckedValue) ?? uncheckedValue
    }

    /// Whether the name is one the daemon keeps for itself or for testers.
    public var isReserved: Bool { PrincipalName.reserved.contains(value) || value.hasPrefix(PrincipalName.testerPrefix) }

    // MARK: - ICU

    static func nfkcCasefold(_ text: String) -> String? {
        var status = U_ZERO_ERROR
        guard let normalizer = swift_unorm2_getNFKCCasefoldInstance(&status), status.rawValue <= U_ZERO_ERROR.rawValue else { return nil }
        return transform(text) { input, inputCount, output, capacity, status in
            swift_unorm2_normalize(normalizer, input, inputCount, output, capacity, &status)
        }
    }

    static func skeleton(of text: String) -> String? {
        var status = U_ZERO_ERROR
        guard let checker = swift_uspoof_open(&status), status.rawValue <= U_ZERO_ERROR.rawValue else { return nil }
        defer { swift_uspoof_close(checker) }
        return transform(text) { input, inputCount, output, capacity, status in
            swift_uspoof_getSkeleton(checker, 0, input, inputCount, output, capacity, &status)
        }
    }

    /// Runs an ICU UTF-16 transform into a buffer large enough for any expansion ICU documents (18× for NFKC_Casefold).
    private static func transform(_ text: String,
                                  _ body: (UnsafePointer<UChar>, Int32, UnsafeMutablePointer<UChar>, Int32, inout UErrorCode) -> Int32) -> String? {
        let input = Array(text.utf16)
        var output = [UChar](repeating: 0, count: input.count * 18 + 16)
        var status = U_ZERO_ERROR
        let count = input.withUnsafeBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                body(inputBuffer.baseAddress!, Int32(inputBuffer.count), outputBuffer.baseAddress!, Int32(outputBuffer.count), &status)
            }
        }
        guard status.rawValue <= U_ZERO_ERROR.rawValue, count >= 0 else { return nil }
        return String(utf16CodeUnits: output, count: Int(count))
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
