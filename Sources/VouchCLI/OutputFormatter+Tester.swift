import VouchJSON

extension OutputFormatter {
    /// One line per tester; a withdrawn tester has nothing left to show but the pseudonym.
    static func testerLine(_ tester: JSONValue) -> String {
        let id = text(tester, "id")
        guard text(tester, "status") == "active" else {
            return "\(id): withdrawn on \(time(tester, "withdrawn_at")); their personal data is erased."
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
            "Email: \(text(tester, "email", "none"))",
            "Assistive technology: \(assistiveTechnologies(tester["assistive_tech"]))",
            "Targeting keys: \(list(tester["targeting_keys"]))",
            "Consent: version \(text(consent, "version")), given on \(time(consent, "given_at")), "
                + (text(consent, "given_by") == "tester" ? "by the tester herself, reading it in \(text(consent, "language"))"
                                                          : "recorded by \(text(consent, "recorded_by"))"),
            "Created: \(time(tester, "created_at"))",
            "Updated: \(time(tester, "updated_at"))",
        ]
        if tester["withdrawn_at"]?.stringValue != nil { lines.append("Withdrawn: \(time(tester, "withdrawn_at"))") }
        return lines
    }

    /// "VoiceOver 18.2 on iOS; braille display on iOS", or "none".
    static func assistiveTechnologies(_ value: JSONValue?) -> String {
        let profiles = (value?.arrayValue ?? []).map { profile in
            var words = technologyName(profile["name"]?.stringValue)
            if let version = profile["version"]?.stringValue { words += " " + version }
            words += " on " + spoken(profile, "platform", .platform)
            if let browser = profile["browser"]?.stringValue { words += " with " + SpokenWords.say(browser, .browser) }
            return words
        }
        return profiles.isEmpty ? "none" : profiles.joined(separator: "; ")
    }

    /// The name people say for a technology ("VoiceOver" for `voiceover`).
    static func technologyName(_ name: String?) -> String {
        SpokenWords.say(name, .assistiveTech)
    }
}

extension OutputFormatter {
    /// "t_4w9tedpdf8fc: enrolled on 3 November 2026 at 10:00 UTC by admin."
    static func enrollmentLine(_ enrollment: JSONValue) -> String {
        "\(text(enrollment, "tester")): enrolled on \(time(enrollment, "enrolled_at")) by \(text(enrollment, "enrolled_by"))."
    }
}

extension OutputFormatter {
    /// "l_4w9tedpdf8fce6h6: active, expires on 17 November 2026 at 10:00 UTC. Created on 3 November 2026 at 10:00 UTC by admin."
    static func testerLinkLine(_ link: JSONValue) -> String {
        let standing = switch text(link, "status") {
        case "revoked": "revoked on \(time(link, "revoked_at"))"
        case "expired": "expired on \(time(link, "expires_at"))"
        default: "\(text(link, "status")), expires on \(time(link, "expires_at"))"
        }
        return "\(text(link, "id")): \(standing). Created on \(time(link, "created_at")) by \(text(link, "created_by"))."
    }
}

extension OutputFormatter {
    /// One invitation: where it stands, then what it enrolls in and who made it.
    static func invitationLine(_ invitation: JSONValue) -> String {
        let standing = switch text(invitation, "status") {
        case "revoked": "revoked on \(time(invitation, "revoked_at"))"
        case "expired": "expired on \(time(invitation, "expires_at"))"
        case "used": "used \(number(invitation, "uses_made")) of \(number(invitation, "uses_allowed")) times"
        default: "active, used \(number(invitation, "uses_made")) of \(number(invitation, "uses_allowed")) times, expires on \(time(invitation, "expires_at"))"
        }
        return "\(text(invitation, "id")): \(standing). Fixes: \(list(invitation["fixes"])). Panels: \(list(invitation["panels"])). Language: \(text(invitation, "language")). "
            + "Created on \(time(invitation, "created_at")) by \(text(invitation, "created_by"))."
    }
}

extension OutputFormatter {
    /// "p_4w9tedpdf8fc: VoiceOver on iOS, 3 testers."
    static func panelLine(_ panel: JSONValue) -> String {
        "\(text(panel, "id")): \(text(panel, "name")), \(testerCount(panel))."
    }

    /// "Panel p_4w9tedpdf8fc now has 3 testers."
    static func panelSize(_ panel: JSONValue) -> String {
        "Panel \(text(panel, "id")) now has \(testerCount(panel))."
    }

    /// Every field of a panel, then one line per tester in it.
    static func panelDetails(_ panel: JSONValue) -> [String] {
        let members = panel["members"]?.arrayValue ?? []
        return [
            "Id: \(text(panel, "id"))",
            "Name: \(text(panel, "name"))",
            "Description: \(text(panel, "description", "none"))",
            "Created: \(time(panel, "created_at")) by \(text(panel, "created_by"))",
            "Testers: \(members.count)",
        ] + members.map { "\(text($0, "tester")): added on \(time($0, "added_at")) by \(text($0, "added_by"))." }
    }

    private static func testerCount(_ panel: JSONValue) -> String {
        let count = panel["members"]?.arrayValue?.count ?? 0
        return count == 1 ? "1 tester" : "\(count) testers"
    }
}
