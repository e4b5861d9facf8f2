/// deploy/vouchd.conf.example, written from the table so that the file never disagrees with what vouchd does
/// (`vouchd print-example-config`; a test compares the committed file with this text).
extension DaemonSettings {
    /// The opening comment: how the file works, before the first section.
    static let exampleIntroduction = """
        # vouchd configuration.
        #
        # Every key vouchd knows is below, with its default value. Every line is a comment, so this file as it is
        # changes nothing: to change a setting, remove the '#' before its 'key = value' line and edit the value.
        #
        # Format: one 'key = value' per line; '#' starts a comment. An unknown key or a bad value stops vouchd at
        # start, with the file's line number and what is allowed.
        #
        # Precedence, lowest to highest: the built-in defaults, this file, VOUCHD_* environment variables, flags.
        # The variable for a key is VOUCHD_ and the key in capitals with '.' as '_':
        # webhooks.retry_schedule is VOUCHD_WEBHOOKS_RETRY_SCHEDULE.
        #
        # See the effective value of every key, and where it came from:
        #   vouchd check-config --config /etc/vouch/vouchd.conf
        #
        # Durations are a whole number followed by s, m, h or d: 90s, 15m, 24h, 7d (0 alone is also allowed).
        #
        # 'vouchd print-example-config' writes this file from vouchd's own table of settings.
        """

    /// The longest comment line the example wraps to, '# ' included.
    static let exampleWidth = 108

    /// The whole example file: the introduction, then each section's heading and each key's explanation above its
    /// commented-out `key = default` line.
    package static var exampleConfiguration: String {
        var lines = exampleIntroduction.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for section in sections {
            lines += ["", "", "# \(section.title)"]
            if let note = section.note { lines += commented(note) }
            for setting in section.settings {
                lines.append("")
                lines += commented(setting.help)
                // An empty default is written without a trailing space.
                lines.append(setting.defaultValue.isEmpty ? "# \(setting.key) =" : "# \(setting.key) = \(setting.defaultValue)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A paragraph as comment lines no wider than `exampleWidth`, broken between words.
    static func commented(_ paragraph: String) -> [String] {
        var lines: [String] = []
        var line = "#"
        for word in words(paragraph) {
            if line.count > 1, line.count + 1 + word.count > exampleWidth {
                lines.append(line)
                line = "#"
            }
            line += " " + word
        }
        lines.append(line)
        return lines
    }

    /// The paragraph's words, with a phrase in single quotes ('host=db.example.com dbname=vouch') kept as one, so
    /// that a value meant to be copied is never broken over two lines. An apostrophe inside a word opens nothing.
    static func words(_ paragraph: String) -> [String] {
        var words: [String] = []
        var inQuote = false
        for word in paragraph.split(separator: " ").map(String.init) {
            let quotes = word.filter { $0 == "'" }.count
            if inQuote {
                words[words.count - 1] += " " + word
                inQuote = quotes == 0
            } else {
                words.append(word)
                inQuote = word.drop { $0 == "(" }.first == "'" && quotes == 1
            }
        }
        return words
    }
}
