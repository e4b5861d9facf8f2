import Foundation
import Synchronization
import _FoundationICU
import VouchDomain

/// A principal's name as identity: normalised so that one person cannot pass for two by spelling (docs/privacy.md and
/// docs/decisions.md, "Principals, not tokens").
///
/// - The name is NFKC case-folded (Unicode's `NFKC_Casefold`): `Rita`, `RITA` and fullwidth `Ｒｉｔａ` are one name.
///   Spaces at either end are dropped and a run of spaces inside is one space, as HTML shows it.
/// - Characters that show as nothing or as a blank are refused rather than silently dropped: default-ignorable code
///   points (soft hyphen, zero-width space, word joiner…), control and format characters, every space but the
///   ordinary one, the braille blank and the Hangul fillers, unassigned and private-use code points, and a combining
///   mark with no letter before it. A name that hides characters is a warning sign.
/// - `skeleton` is Unicode TS #39's confusable skeleton with combining marks removed, and `capitalSkeleton` the same
///   of the name in capitals: two names look alike when either is equal (`rita` with a Cyrillic `і`, `rn` and `m`,
///   `i` and `i` with a combining dot above, `zoe` and `zoë`, Greek `τ` and `t`), and the store refuses a new
///   principal that looks like an existing one. Reserved names and the tester prefix `t_` are compared the same way.
///
/// ICU does the Unicode work: the toolchain's Foundation carries it as `_FoundationICU`, with its normalisation
/// and spoof-checker data, so no library outside the toolchain is needed.
public struct PrincipalName: Sendable, Hashable, CustomStringConvertible {
    /// The normalised name, the principal's identity.
    public let value: String
    /// What `value` looks like: its TS #39 skeleton without combining marks, spaces collapsed.
    public let skeleton: String
    /// What `value` looks like in capitals, where letters of other scripts are closer to Latin ones (Greek `τ`
    /// becomes `Τ`, a `T`; Cyrillic `т` becomes `Т`).
    public let capitalSkeleton: String

    public var description: String { value }

    /// Names the daemon itself writes as a principal, or shows in place of an erased one.
    public static let reserved: Set<String> = ["vouchd", "withdrawn", "system", "anonymous"]
    /// Tester tokens' principals are the tester's pseudonym; no other principal may look like one.
    public static let testerPrefix = "t_"
    public static let maximumLength = 100
    /// What a name may hold, for errors.
    public static let allowed = "a name may hold letters, digits, punctuation, symbols and single spaces between words, such as 'rita' or 'ios-app'"

    /// Normalises `text`; the error names `field` and says what is wrong and what is allowed.
    public init(_ text: String, field: String) throws(FieldError) {
        // Checked before anything is trimmed: Foundation's whitespace set includes some invisible characters.
        if let problem = PrincipalName.characterProblem(in: text) {
            throw FieldError(field: field, message: problem + "; " + PrincipalName.allowed)
        }
        let collapsed = PrincipalName.collapsingSpaces(text)
        guard !collapsed.isEmpty else { throw FieldError(field: field, message: "must not be empty: name the person or system, such as 'rita' or 'ios-app'") }
        guard let normalized = PrincipalName.nfkcCasefold(collapsed).map(PrincipalName.collapsingSpaces), !normalized.isEmpty else {
            throw FieldError(field: field, message: "could not be normalised; " + PrincipalName.allowed)
        }
        guard normalized.count <= PrincipalName.maximumLength else {
            throw FieldError(field: field, message: "must be at most \(PrincipalName.maximumLength) characters, got \(normalized.count)")
        }
        guard let looks = PrincipalName.looks(of: normalized) else {
            throw FieldError(field: field, message: "could not be normalised; " + PrincipalName.allowed)
        }
        value = normalized
        skeleton = looks.skeleton
        capitalSkeleton = looks.capitals
    }

    /// The form stored before principals existed, for names already in the database: the same normalisation, with
    /// refused characters dropped instead (they were accepted then), so old and new spellings meet.
    public static func legacy(_ text: String) -> PrincipalName {
        let visible = String(String.UnicodeScalarView(text.unicodeScalars.filter { PrincipalName.refusal(of: $0) == nil }))
        if let name = try? PrincipalName(visible, field: "name") { return name }
        return PrincipalName(stored: visible.lowercased())
    }

    /// A name as the store holds it, already normalised when it was stored: its skeletons are computed again, so
    /// names stored under an older rule are compared by today's.
    public init(stored: String) {
        value = stored
        let looks = PrincipalName.looks(of: stored)
        skeleton = looks?.skeleton ?? stored
        capitalSkeleton = looks?.capitals ?? stored.uppercased()
    }

    /// Whether the two names look alike, so they must not be two principals.
    public func looksLike(_ other: PrincipalName) -> Bool {
        skeleton == other.skeleton || capitalSkeleton == other.capitalSkeleton
    }

    private static let reservedNames = reserved.sorted().map(PrincipalName.init(stored:))
    private static let testerPrefixName = PrincipalName(stored: testerPrefix)

    /// The reserved name this one looks like (`t_…` for the tester prefix), or nil.
    public var reservedLookAlike: String? {
        if let name = PrincipalName.reservedNames.first(where: looksLike) { return name.value }
        let prefix = PrincipalName.testerPrefixName
        if skeleton.hasPrefix(prefix.skeleton) || capitalSkeleton.hasPrefix(prefix.capitalSkeleton) { return PrincipalName.testerPrefix + "…" }
        return nil
    }

    /// Whether the name is, or looks like, one the daemon keeps for itself or for testers.
    public var isReserved: Bool { reservedLookAlike != nil }

    /// Both skeletons of a normalised name; nil when ICU cannot compute them.
    ///
    /// Kept per name: the store compares a new principal with every stored one inside its write transaction, and
    /// ICU's spoof checker costs about a tenth of a millisecond per name, so a thousand principals held the
    /// database's writer for about 100 ms per new token. Names are few and never change; the cache is emptied
    /// when it passes `cacheLimit`, so a stream of distinct names cannot grow it.
    private static func looks(of text: String) -> (skeleton: String, capitals: String)? {
        if let known = looksCache.withLock({ $0[text] }) { return known }
        guard let lower = skeleton(of: text), let upper = skeleton(of: text.uppercased()) else { return nil }
        let looks = (skeleton: withoutMarks(lower), capitals: withoutMarks(upper))
        // Only names of a principal's length are kept, so the cache stays small whatever it is asked.
        guard text.utf8.count <= 4 * maximumLength else { return looks }
        looksCache.withLock { cache in
            if cache.count >= cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[text] = looks
        }
        return looks
    }

    private static let cacheLimit = 10_000
    private static let looksCache = Mutex<[String: (skeleton: String, capitals: String)]>([:])

    /// The text decomposed, without its nonspacing and enclosing marks, spaces collapsed: a dot above an `i`, a dot
    /// below a letter or an accent repeated on itself can be all but invisible, so names that differ only in such
    /// marks are taken to look alike.
    static func withoutMarks(_ text: String) -> String {
        let kept = text.decomposedStringWithCanonicalMapping.unicodeScalars.filter {
            switch $0.properties.generalCategory {
            case .nonspacingMark, .enclosingMark: false
            default: true
            }
        }
        return collapsingSpaces(String(String.UnicodeScalarView(kept)))
    }

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

