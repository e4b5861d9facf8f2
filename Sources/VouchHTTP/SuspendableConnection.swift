import CMicroHTTPD
import Glibc

/// A libmicrohttpd connection as a reply that outlives the access handler reaches it: to park it, wake it, cut it.
///
/// `@unchecked Sendable`: the pointer and descriptor are only used while libmicrohttpd keeps the connection, which
/// each owner guarantees under its own lock: `HTTPCompletion` and `HTTPStream` resume only a connection they
/// suspended (libmicrohttpd never closes a suspended connection), exactly once per suspension; `HTTPStream` shuts the
/// socket down only before the response's free callback has run, and libmicrohttpd closes the socket after it.
struct SuspendableConnection: @unchecked Sendable {
    let connection: OpaquePointer
    /// The socket; -1 when libmicrohttpd did not tell.
    let descriptor: Int32

    init(_ connection: OpaquePointer) {
        self.connection = connection
        descriptor = vouch_mhd_connection_descriptor(connection)
    }

    /// "The only safe way to call this function is to call it from the MHD_AccessHandlerCallback or
    /// MHD_ContentReaderCallback": only on the connection's own libmicrohttpd thread.
    func suspend() {
        MHD_suspend_connection(connection)
    }

    /// "It is safe to resume a suspended connection at any time", from any thread; never one that is not suspended.
    func resume() {
        MHD_resume_connection(connection)
    }

    /// Makes libmicrohttpd's next write fail, so it closes the connection itself. Never `close`: the descriptor is its own.
    func shutDown() {
        if descriptor >= 0 { _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    /// True when the client has closed its end or reset the connection. libmicrohttpd does not watch a suspended
    /// socket, and a write after the client's FIN still succeeds (only the RST it provokes fails the next one), so a
    /// stream woken from its wait looks before it writes.
    var peerHasClosed: Bool {
        guard descriptor >= 0 else { return false }
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
    }

    /// Event streams carry small messages: a small send buffer keeps what the kernel holds for a client that does not
    /// read at kilobytes instead of the megabytes autotuning would grow it to, and lets such a client be noticed sooner.
    func limitSendBuffer(to bytes: Int32) {
        guard descriptor >= 0 else { return }
        var size = bytes
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
}
