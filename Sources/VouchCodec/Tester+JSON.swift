import VouchDomain
import VouchJSON

extension Tester {
    /// The API's tester: personal fields are present only for roles that manage testers and for the tester.
    public var jsonValue: JSONValue {
        .object([
            "id": .string(id),
            "name": .optional(name),
            "contact": .optional(contact),
            "email": .optional(email),
            "assistive_tech": .array(assistiveTech.map(\.jsonValue)),
            "targeting_keys": .strings(targetingKeys),
            "consent": .object([
                "version": .string(consent.version), "given_at": .string(Timestamp.string(consent.givenAt)),
                "recorded_by": .string(consent.recordedBy), "given_by": .string(consent.givenBy.rawValue), "language": .optional(consent.language),
            ]),
            "status": .string(status.rawValue),
            "created_at": .string(Timestamp.string(createdAt)),
            "updated_at": .string(Timestamp.string(updatedAt)),
            "withdrawn_at": .optional(withdrawnAt.map(Timestamp.string)),
        ])
    }
}

extension AssistiveTechProfile {
    public var jsonValue: JSONValue {
        .object(["name": .string(technology.rawValue), "platform": .string(platform.rawValue), "version": .optional(version),
                 "browser": .optional(browser?.rawValue)])
    }

    /// Reads `{"name","platform","version","browser"}` or the CLI's `"voiceover:ios:18.2"`.
    static func read(_ value: JSONValue, field: String) -> Result<AssistiveTechProfile, FieldError> {
        switch value {
        case .string(let text):
            do { return .success(try AssistiveTechProfile(parsing: text, field: field)) } catch { return .failure(error) }
        case .object(let object):
            var reader = JSONFieldReader(object: object, prefix: field + ".")
            let name = reader.string("name")
            let platform = reader.string("platform")
            let version = reader.nullableString("version") ?? nil
            let browser = reader.nullableString("browser") ?? nil
            do { try reader.finish() } catch { return .failure(error.errors[0]) }
            guard let name, let technology = AssistiveTechnology(rawValue: name) else {
                return .failure(FieldError(field: field + ".name", message: "must be one of \(AssistiveTechnology.allowedList)"))
            }
            guard let platform, let parsedPlatform = Platform(rawValue: platform) else {
                return .failure(FieldError(field: field + ".platform", message: "must be one of \(Platform.allowedList)"))
            }
            if let version, version.isEmpty || version.count > AssistiveTechProfile.maxVersionLength {
                return .failure(FieldError(field: field + ".version", message: "must be 1 to \(AssistiveTechProfile.maxVersionLength) characters"))
            }
            var parsedBrowser: Browser?
            if let browser {
                guard let named = Browser(rawValue: browser) else {
                    return .failure(FieldError(field: field + ".browser", message: "must be one of \(Browser.allowedList)"))
                }
                parsedBrowser = named
            }
            let profile = AssistiveTechProfile(technology: technology, platform: parsedPlatform, version: version, browser: parsedBrowser)
            if let problem = profile.browserProblem { return .failure(FieldError(field: field + ".browser", message: problem)) }
            return .success(profile)
        default:
            return .failure(FieldError(field: field, message: "must be an object {\"name\", \"platform\", \"version\", \"browser\"} or a string \(AssistiveTechProfile.format)"))
        }
    }
}

extension TesterDraft {
    public static let readOnlyFields = ["id", "status", "created_at", "updated_at", "withdrawn_at"]

    /// Reads a tester body; `consent` is `{"version": "…"}` or just the version string.
    public static func read(_ json: JSONValue) -> (draft: TesterDraft, errors: [FieldError]) {
        guard case .object(let object) = json else {
            return (TesterDraft(), [FieldError(field: "(body)", message: "must be a JSON object, got \(json.typeName)")])
        }
        var draft = TesterDraft()
        var reader = JSONFieldReader(object: object)
        draft.name = reader.string("name")
        draft.contact = reader.nullableString("contact")
        draft.email = reader.nullableString("email")
        if let list = reader.value("assistive_tech") {
            if case .array(let elements) = list {
                var profiles: [AssistiveTechProfile] = []
                for (index, element) in elements.enumerated() {
                    switch AssistiveTechProfile.read(element, field: "assistive_tech[\(index)]") {
                    case .success(let profile): profiles.append(profile)
                    case .failure(let error): reader.addError(error)
                    }
                }
                draft.assistiveTech = profiles
            } else {
                reader.addError(FieldError(field: "assistive_tech", message: "must be an array, got \(list.typeName)"))
            }
        }
        draft.targetingKeys = reader.stringList("targeting_keys")
        if let consent = reader.value("consent") {
            switch consent {
            case .string(let version): draft.consentVersion = version
            case .object(let members):
                var consentReader = JSONFieldReader(object: members, prefix: "consent.")
                draft.consentVersion = consentReader.string("version")
                if draft.consentVersion == nil { consentReader.addError(FieldError(field: "consent.version", message: "is required")) }
                consentReader.refuse(["given_at", "recorded_by", "given_by", "language"], because: "is set by the server when consent is recorded")
                do { try consentReader.finish() } catch { error.errors.forEach { reader.addError($0) } }
            default:
                reader.addError(FieldError(field: "consent", message: "must be {\"version\": \"…\"} or the version string, got \(consent.typeName)"))
            }
        }
        reader.refuse(TesterDraft.readOnlyFields, because: "is read-only; the server sets it")
        do {
            try reader.finish()
            return (draft, [])
        } catch {
            return (draft, error.errors)
        }
    }
}
