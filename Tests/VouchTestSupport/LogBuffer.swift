import Synchronization

/// Text appended from another thread: what a daemon writes to stderr, read on the pipe's reader thread, or what a
/// logger's sink gets.
public final class LogBuffer: Sendable {
    public let text = Mutex<String>("")

    public init() {}
}
