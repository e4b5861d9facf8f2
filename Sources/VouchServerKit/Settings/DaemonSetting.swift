import VouchStore

/// One key of vouchd's configuration: everything the daemon, `check-config`, the example file and the tests that hold
/// the documentation to it need to know about the key, written in one place (`DaemonSettings`).
struct DaemonSetting: Sendable {
    let key: String
    /// The built-in value, as it would be written in the configuration file; it must pass `check`.
    let defaultValue: String
    /// What a value must be; a value that fails stops the start and says what is allowed.
    let check: ConfigValueCheck
    /// What the key does, in one paragraph: the example file's comment above the key.
    let help: String
    /// Shown as `[redacted]` by `check-config` and the start log. None is yet: tokens and webhook secrets live in the
    /// database, never in the configuration; a key that ever holds one must say so here.
    let isSecret: Bool

    init(_ key: String, default defaultValue: String, _ check: ConfigValueCheck, secret: Bool = false, _ help: String) {
        self.key = key
        self.defaultValue = defaultValue
        self.check = check
        self.help = help
        self.isSecret = secret
    }

    /// A value as logs and `check-config` show it: secrets redacted, and a database URL without its password.
    func shown(_ value: String) -> String {
        if isSecret { return "[redacted]" }
        if case .databaseURL = check { return PostgresDatabase.redacted(value) }
        return value
    }
}

/// Settings that belong together, under one heading in the example file.
struct DaemonSettingSection: Sendable {
    let title: String
    /// A paragraph under the heading about the whole section, if it needs one.
    let note: String?
    let settings: [DaemonSetting]

    init(_ title: String, note: String? = nil, settings: [DaemonSetting]) {
        self.title = title
        self.note = note
        self.settings = settings
    }
}
