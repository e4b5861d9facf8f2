import Foundation

/// Checks a client's fix fields and turns them into a `Fix`, reporting every bad field at once.
public enum FixValidator {
    public static let maxTitleLength = 200
    public static let maxUIAreaLength = 200
    public static let maxDescriptionLength = 4_000
    public static let maxAnnouncementLength = 500

    /// What a fix's text may be written in, and what a new fix without `language` takes: the console's languages and
    /// `console.default_language`, which the service passes in.
    public struct Languages: Sendable {
        public var allowed: [String]
        public var fallback: String

        public init(allowed: [String], fallback: String) {
            self.allowed = allowed
            self.fallback = fallback
        }

        /// English only, for callers that know of no other.
        public static let english = Languages(allowed: ["en"], fallback: "en")
    }

    /// Validates a new fix; every field the API marks required must be present.
    /// - Parameter priorErrors: problems already found while reading the request, reported together with these.
    public static func makeFix(from draft: FixDraft, author: String, at time: Date, languages: Languages = .english,
                               priorErrors: [FieldError] = []) throws(ValidationFailure) -> Fix {
        var errors: [FieldError] = priorErrors
        var key: FixKey?
        if let text = draft.key {
            do { key = try FixKey(validating: text) } catch { errors.append(error) }
        } else {
            errors.append(FieldError(field: "key", message: "is required; must be \(FixKey.rule)"))
        }
        if draft.title == nil { errors.append(FieldError(field: "title", message: "is required: a short name for the fix")) }
        if draft.uiArea == nil {
            errors.append(FieldError(field: "ui_area", message: "is required: the human name of the UI area the fix touches, such as \"TV channel selector\""))
        }
        if draft.platforms == nil {
            errors.append(FieldError(field: "platforms", message: "is required: one or more of \(Platform.allowedList)"))
        }
        errors += fieldErrors(in: draft, languages: languages)
        guard errors.isEmpty, let key else { throw ValidationFailure(errors) }
        return Fix(
            key: key, title: trimmed(draft.title!), description: draft.description.flatMap { $0 }.flatMap(nonEmpty),
            uiArea: trimmed(draft.uiArea!), platforms: platforms(draft.platforms!), wcag: WCAGCatalog.normalized(draft.wcag ?? []),
            expectedAnnouncement: draft.expectedAnnouncement.flatMap { $0 }.flatMap(nonEmpty), language: draft.language ?? languages.fallback,
            author: author,
            createdAt: time, updatedAt: time
        )
    }

    /// Applies a partial update; the key and the read-only fields cannot be changed this way.
    public static func applyPatch(_ draft: FixDraft, to fix: Fix, at time: Date, languages: Languages = .english,
                                  priorErrors: [FieldError] = []) throws(ValidationFailure) -> Fix {
        var errors = priorErrors
        if let key = draft.key, key != fix.key.rawValue { errors.append(FieldError(field: "key", message: "cannot be changed; create a new fix instead")) }
        errors += fieldErrors(in: draft, languages: languages)
        guard errors.isEmpty else { throw ValidationFailure(errors) }
        var next = fix
        if let title = draft.title { next.title = trimmed(title) }
        if let description = draft.description { next.description = description.flatMap(nonEmpty) }
        if let uiArea = draft.uiArea { next.uiArea = trimmed(uiArea) }
        if let platforms = draft.platforms { next.platforms = self.platforms(platforms) }
        if let wcag = draft.wcag { next.wcag = WCAGCatalog.normalized(wcag) }
        if let announcement = draft.expectedAnnouncement { next.expectedAnnouncement = announcement.flatMap(nonEmpty) }
        if let language = draft.language { next.language = language }
        if next != fix { next.updatedAt = time }
        return next
    }

    private static func fieldErrors(in draft: FixDraft, languages: Languages) -> [FieldError] {
        var errors: [FieldError] = []
        if let language = draft.language, !languages.allowed.contains(language) {
            errors.append(FieldError(field: "language", message: "'\(language)' is not one of the console's languages; allowed: \(languages.allowed.joined(separator: ", "))"))
        }
        if let title = draft.title { errors += text(title, field: "title", limit: maxTitleLength, required: true) }
        if let uiArea = draft.uiArea { errors += text(uiArea, field: "ui_area", limit: maxUIAreaLength, required: true) }
        if let description = draft.description, let description {
            errors += text(description, field: "description", limit: maxDescriptionLength, required: false)
        }
        if let announcement = draft.expectedAnnouncement, let announcement {
            errors += text(announcement, field: "expected_announcement", limit: maxAnnouncementLength, required: false)
        }
        if let platforms = draft.platforms {
            if platforms.isEmpty {
                errors.append(FieldError(field: "platforms", message: "must name at least one of \(Platform.allowedList)"))
            }
            for (index, name) in platforms.enumerated() where Platform(rawValue: name) == nil {
                errors.append(FieldError(field: "platforms[\(index)]", message: "'\(name)' is not a platform; allowed: \(Platform.allowedList)"))
            }
        }
        if let wcag = draft.wcag { errors += WCAGCatalog.validate(wcag, field: "wcag") }
        return errors
    }

    /// Checked as sent, then stored trimmed (`trimmed`): the document's patterns allow line feeds and tabs in a fix's text.
    private static func text(_ value: String, field: String, limit: Int, required: Bool) -> [FieldError] {
        SchemaText.problem(value, limit: limit, required: required, lineBreaks: true).map { [FieldError(field: field, message: $0)] } ?? []
    }

    private static func trimmed(_ value: String) -> String { value.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// Optional text that is blank after trimming means "none".
    private static func nonEmpty(_ value: String) -> String? {
        let text = trimmed(value)
        return text.isEmpty ? nil : text
    }

    /// Platforms in their canonical order, without repeats.
    private static func platforms(_ names: [String]) -> [Platform] {
        let given = Set(names.compactMap(Platform.init(rawValue:)))
        return Platform.allCases.filter(given.contains)
    }
}
