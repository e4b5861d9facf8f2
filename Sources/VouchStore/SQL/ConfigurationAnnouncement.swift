/// How a process tells the others on a shared database that it committed a configuration revision: a NOTIFY on
/// this channel, with the revision as payload, sent inside the transaction so it is delivered only if it commits.
public enum ConfigurationAnnouncement {
    public static let channel = "vouch_configuration"
}
