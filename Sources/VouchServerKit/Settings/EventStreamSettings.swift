/// How OFREP event streams (ADR-0008 of the OFREP specification) are offered: see docs/contracts.md, "Event streams".
public struct EventStreamSettings: Sendable {
    /// False leaves `eventStreams` out of bulk answers, for clients that cannot ignore a field they do not know.
    public var enabled: Bool
    /// The address clients reach vouchd at (`https://flags.example.com`), when a proxy stands in front; empty: the
    /// request's `Host` over plain HTTP.
    public var publicURL: String
    /// How long a stream address stays usable for opening a stream; it changes every half of this.
    public var credentialSeconds: Int
    /// How often an idle stream gets a comment, so proxies keep it open and a client that left is noticed.
    public var keepAliveSeconds: Int
    /// What clients are told (`inactivityDelaySec`): close the stream after this long in the background.
    public var inactivityDelaySeconds: Int
    /// Streams held at once; more are refused with 503 so they never take every connection.
    public var maxStreams: Int
    /// Streams one person's token (every role but `sdk`) holds at once; more are refused with 429 and its bulk answers
    /// offer none, so one token cannot take every stream. An app on one device needs one, and a second while it
    /// reconnects. `sdk` tokens stand for every install of an app: `ofrep.max_streams` and
    /// `http.max_connections_per_ip` bound them.
    public var maxStreamsPerToken: Int

    /// Each default is the configuration's (`DaemonSettings`), so tests that change one setting run on the rest as shipped.
    public init(enabled: Bool = DaemonConfiguration.defaults.boolean("ofrep.event_streams"),
                publicURL: String = DaemonConfiguration.defaults["ofrep.public_url"],
                credentialSeconds: Int = DaemonConfiguration.defaults.seconds("ofrep.stream_credential_ttl"),
                keepAliveSeconds: Int = DaemonConfiguration.defaults.seconds("ofrep.stream_keepalive"),
                inactivityDelaySeconds: Int = DaemonConfiguration.defaults.seconds("ofrep.inactivity_delay"),
                maxStreams: Int = DaemonConfiguration.defaults.integer("ofrep.max_streams"),
                maxStreamsPerToken: Int = DaemonConfiguration.defaults.integer("ofrep.max_streams_per_token")) {
        self.enabled = enabled
        self.publicURL = publicURL
        self.credentialSeconds = credentialSeconds
        self.keepAliveSeconds = keepAliveSeconds
        self.inactivityDelaySeconds = inactivityDelaySeconds
        self.maxStreams = maxStreams
        self.maxStreamsPerToken = maxStreamsPerToken
    }
}
