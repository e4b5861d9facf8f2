import VouchJSON

extension OutputFormatter {
    /// One line per tester; a withdrawn tester has nothing left to show but the pseudonym.
    static func testerLine(_ tester: JSONValue) -> String {
        let id = text(tester, "id")
        guard text(tester, "status") == "active" else {
            return "\(id): withdrawn \(text(tester, "withdrawn_at")); their personal data is erased."
        }
        let keys = tester["targeting_keys"]?.arrayValue?.count ?? 0
        return "\(id): \(text(tester, "name")), active. Uses \(assistiveTechnologies(tester["assistive_tech"])). \(keys == 1 ? "1 targeting key" : "\(keys) targeting keys")."
    }

    /// Every field of one tester, one labelled line each.
    static func testerDetails(_ tester: JSONValue) -> [String] {
        let consent = tester["consent"] ?? .null
        var lines = [
            "Id: \(text(tester, "id"))",
            "Status: \(text(tester, "status"))",
            "Name: \(text(tester, "name", "none"))",
            "Contact: \(text(tester, "contact", "none"))",
            "Assistive technology: \(assistiveTechnologies(tester["assistive_tech"]))",
            "Targeting keys: \(list(tester["targeting_keys"]))",
            "Consent: version \(text(consent, "version")), given \(text(consent, "given_at")), recorded by \(text(consent, "recorded_by"))",
            "Created: \(text(tester, "created_at"))",
            "Updated: \(text(tester, "updated_at"))",
        ]
        if let withdrawnAt = tester["withdrawn_at"]?.stringValue { lines.append("Withdrawn: \(withdrawnAt)") }
        return lines
    }

    /// "VoiceOver 18.2 on iOS; braille display on iOS", or "none".
    static func assistiveTechnologies(_ value: JSONValue?) -> String {
        let profiles = (value?.arrayValue ?? []).map { profile in
            var words = technologyName(profile["name"]?.stringValue)
            if let version = profile["version"]?.stringValue { words += " " + version }
            return words + " on " + spoken(profile, "platform", .platform)
        }
        return profiles.isEmpty ? "none" : profiles.joined(separator: "; ")
    }

    /// The name people say for a technology ("VoiceOver" for `voiceover`).
    static func technologyName(_ name: String?) -> String {
        SpokenWords.say(name, .assistiveTech)
    }
}

extension OutputFormatter {
    /// "t_4w9tedpdf8fc: enrolled 2026-11-03T10:00:00Z by admin."
    static func enrollmentLine(_ enrollment: JSONValue) -> String {
        "\(text(enrollment, "tester")): enrolled \(text(enrollment, "enrolled_at")) by \(text(enrollment, "enrolled_by"))."
    }
}

extension OutputFormatter {
    /// "l_4w9tedpdf8fce6h6: active, expires 2026-11-17T10:00:00.000Z. Created 2026-11-03T10:00:00.000Z by admin."
    static func testerLinkLine(_ link: JSONValue) -> String {
        let standing = switch text(link, "status") {
        case "revoked": "revoked \(text(link, "revoked_at"))"
        case "expired": "expired \(text(link, "expires_at"))"
        default: "\(text(link, "status")), expires \(text(link, "expires_at"))"
        }
        return "\(text(link, "id")): \(standing). Created \(text(link, "created_at")) by \(text(link, "created_by"))."
    }
}
