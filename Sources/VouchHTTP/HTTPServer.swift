import CMicroHTTPD
import Foundation
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd: a thread pool with epoll, keep-alive, and a body size limit.
///
/// Handlers run synchronously on libmicrohttpd's threads; they must not block for long.
public final class HTTPServer: Sendable {
    public struct Configuration: Sendable {
        public var host: String
        public var port: UInt16
        public var threadCount: Int
        public var maxBodyBytes: Int
        public var connectionTimeoutSeconds: Int
        public var connectionLimit: Int
        /// Connections one address may hold open at once, so one slow or hostile client cannot take them all.
        public var connectionLimitPerAddress: Int
        /// Request headers copied into `HTTPRequest.headers`; each costs a lookup per request.
        public var collectedHeaders: [String]

        public init(host: String = "127.0.0.1", port: UInt16 = 8750, threadCount: Int = ProcessInfo.processInfo.activeProcessorCount,
                    maxBodyBytes: Int = 64 * 1024, connectionTimeoutSeconds: Int = 30, connectionLimit: Int = 1024,
                    connectionLimitPerAddress: Int = 256, collectedHeaders: [String] = HTTPRequest.collectedHeaders) {
            self.collectedHeaders = collectedHeaders
            self.host = host
            self.port = port
            self.threadCount = max(1, threadCount)
            self.maxBodyBytes = maxBodyBytes
            self.connectionTimeoutSeconds = connectionTimeoutSeconds
            self.connectionLimit = connectionLimit
            self.connectionLimitPerAddress = connectionLimitPerAddress
        }
    }

    public struct StartFailure: Error, CustomStringConvertible {
        public var description: String
    }

    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    let configuration: Configuration
    let handler: Handler
    /// The running daemon; set once in `start`, read by `stop`.
    private let daemon = DaemonHandle()
    /// Requests begun and not yet completed (or aborted), so shutdown can wait for them.
    let requestsInFlight = Atomic<Int>(0)

    public init(configuration: Configuration, handler: @escaping Handler) {
        self.configuration = configuration
        self.handler = handler
    }

    /// Binds and starts serving; returns the bound port (useful with port 0).
    public func start() throws -> UInt16 {
        let address = try SocketAddress(host: configuration.host, port: configuration.port)
        // Epoll with a thread pool served as many requests per second as nginx on this machine (docs/architecture.md, "libmicrohttpd");
        // ITC lets `MHD_quiesce_daemon` stop accepting at shutdown.
        // TURBO: no extra checks or syscalls per request that a daemon behind nothing else does not need.
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_ITC.rawValue | MHD_USE_TURBO.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        // The server outlives the daemon (stop() joins MHD's threads before the server can go), so unretained is safe.
        let context = Unmanaged.passUnretained(self).toOpaque()
        let started = address.withSockaddr { sockaddr in
            vouch_mhd_start(UInt32(flags), sockaddr, UInt32(configuration.threadCount), UInt32(configuration.connectionTimeoutSeconds),
                            UInt32(configuration.connectionLimit), UInt32(configuration.connectionLimitPerAddress),
                            HTTPServer.accessHandler, context, HTTPServer.completedHandler, context)
        }
        guard let started else {
            throw StartFailure(description: "cannot listen on \(configuration.host):\(configuration.port): the address is in use or not available")
        }
        daemon.set(started)
        return vouch_mhd_bound_port(started)
    }

    /// Stops accepting new connections; requests in flight go on.
    public func quiesce() {
        daemon.withDaemon { daemon in
            // "Returns the listen socket, which the application must close"; left open, the kernel would keep
            // completing connections into a backlog nobody accepts from.
            let listener = MHD_quiesce_daemon(daemon)
            if listener >= 0 { close(listener) }
        }
    }

    /// Waits until no request is in flight or `timeoutSeconds` have passed; true when none is left.
    /// Call after `quiesce`, so no new connection adds to them (an open keep-alive connection still may).
    public func drain(timeoutSeconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while requestsInFlight.load(ordering: .acquiring) > 0 {
            guard Date() < deadline else { return false }
            usleep(10_000)
        }
        return true
    }

    /// Stops the server and waits for libmicrohttpd's threads; no handler runs after this returns.
    public func stop() {
        daemon.take().map { MHD_stop_daemon($0) }
    }

    deinit {
        stop()
    }

    private static let accessHandler: vouch_mhd_access_handler = { context, connection, url, method, _, uploadData, uploadDataSize, requestState in
        guard let context, let connection, let url, let method, let uploadDataSize, let requestState else { return .NO }
        let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        return server.handle(connection: connection, url: url, method: method, uploadData: uploadData,
                             uploadDataSize: uploadDataSize, requestState: requestState)
    }

    /// Runs for every request, finished or aborted: the one place per-request state is freed.
    private static let completedHandler: vouch_mhd_completed_handler = { context, _, requestState, _ in
        guard let requestState, let state = requestState.pointee else { return }
        if let context {
            Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().requestsInFlight.subtract(1, ordering: .releasing)
        }
        Unmanaged<RequestState>.fromOpaque(state).release()
        requestState.pointee = nil
    }
}
