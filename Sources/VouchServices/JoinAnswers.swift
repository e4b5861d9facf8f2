import VouchJSON

/// Her answers on the join pages so far, exactly as typed, kept in the draft between pages (docs/invitations.md,
/// "Joining"). Nil means not asked yet; an empty email means she chose to give none.
public struct JoinAnswers: Sendable, Equatable {
    /// One assistive technology as she chose it: the technology, the platform, and optionally its version and, on the
    /// web, the browser.
    public struct Technology: Sendable, Equatable {
        public var name: String
        public var platform: String
        public var version: String
        public var browser: String

        public init(name: String = "", platform: String = "", version: String = "", browser: String = "") {
            self.name = name
            self.platform = platform
            self.version = version
            self.browser = browser
        }

        public var isEmpty: Bool { name.isEmpty && platform.isEmpty && version.isEmpty && browser.isEmpty }
    }

    public var name: String?
    public var email: String?
    public var technologies: [Technology]?
    public var testerCode: String?
    public var language: String?

    public init(name: String? = nil, email: String? = nil, technologies: [Technology]? = nil, testerCode: String? = nil, language: String? = nil) {
        self.name = name
        self.email = email
        self.technologies = technologies
        self.testerCode = testerCode
        self.language = language
    }

    public var json: String {
        var object: JSONObject = [:]
        if let name { object["name"] = .string(name) }
        if let email { object["email"] = .string(email) }
        if let technologies {
            object["technologies"] = .array(technologies.map { technology in
                .object(["name": .string(technology.name), "platform": .string(technology.platform), "version": .string(technology.version),
                         "browser": .string(technology.browser)])
            })
        }
        if let testerCode { object["tester_code"] = .string(testerCode) }
        if let language { object["language"] = .string(language) }
        return JSONWriter.string(.object(object))
    }

    /// The answers a draft holds; what cannot be read is asked again.
    public init(json: String) {
        guard let object = (try? JSONParser.parse(json))?.objectValue else {
            self.init()
            return
        }
        self.init(name: object["name"]?.stringValue, email: object["email"]?.stringValue,
                  technologies: object["technologies"]?.arrayValue.map { rows in
                      rows.map { row in
                          Technology(name: row["name"]?.stringValue ?? "", platform: row["platform"]?.stringValue ?? "",
                                     version: row["version"]?.stringValue ?? "", browser: row["browser"]?.stringValue ?? "")
                      }
                  },
                  testerCode: object["tester_code"]?.stringValue, language: object["language"]?.stringValue)
    }
}
