/// An invitation that no longer lets anyone join: revoked, expired, used up, or never made. Whoever holds the
/// address is told the same for each, so an address cannot be probed for what became of it.
public struct InvitationClosed: Error, Sendable, Equatable, CustomStringConvertible {
    public init() {}

    public var description: String {
        "this invitation cannot be used any more: it was used, it expired or it was withdrawn; ask whoever sent it for a new one"
    }
}
