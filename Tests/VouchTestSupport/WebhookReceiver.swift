import Foundation
import Synchronization
import VouchJSON

/// A webhook receiver on 127.0.0.1 or ::1, port 0, over plain sockets: it keeps every request it reads whole and
/// answers each as its script says, including ways an HTTP library would not (never, or with a body that does not end).
///
/// A thread per connection, so a slow answer holds up no other delivery. `stop()` (or the value going away) closes the
/// socket and hangs up every connection, so a test that fails leaves nothing listening.
public final class WebhookReceiver: Sendable {
    public enum Loopback: Sendable {
        case ipv4, ipv6
    }

    /// What to answer one request with.
    public struct Answer: Sendable {
        enum Body: Sendable {
            case empty
            /// Reads the request and never answers; holds the connection until the sender gives up.
            case silent
            /// A `Content-Length` body of this many bytes.
            case huge(bytes: Int)
            /// A chunked body that never ends.
            case endlessChunks
        }

        public var status: Int
        public var headers: [(name: String, value: String)]
        /// Seconds to wait before answering.
        public var delaySeconds: Double
        var body: Body = .empty

        /// `status` with `headers` and an empty body, after `delaySeconds`.
        public init(status: Int, headers: [(name: String, value: String)] = [], delaySeconds: Double = 0) {
            self.status = status
            self.headers = headers
            self.delaySeconds = delaySeconds
        }

        public static func status(_ status: Int) -> Answer { Answer(status: status) }

        public static func redirect(status: Int, location: String) -> Answer { Answer(status: status, headers: [("Location", location)]) }

        public static var silent: Answer { Answer(status: 0, body: .silent) }

        /// `status` with a `Content-Length` body of `bytes` bytes.
        public static func hugeBody(status: Int, bytes: Int) -> Answer { Answer(status: status, body: .huge(bytes: bytes)) }

        /// 200 with a chunked body that never ends.
        public static var endlessChunks: Answer { Answer(status: 200, body: .endlessChunks) }

        private init(status: Int, body: Body) {
            self.init(status: status)
            self.body = body
        }
    }

    /// One request the receiver read whole.
    public struct Request: Sendable {
        /// The request line's method and target, such as `POST` and `/hooks/vouch`.
        public var method: String
        public var target: String
        /// Header names in lowercase; the first line of a repeated name.
        public var headers: [String: String]
        public var body: [UInt8]
        public var receivedAt: Date

        public var id: String { headers["webhook-id"] ?? "" }
        public var timestamp: String { headers["webhook-timestamp"] ?? "" }
        public var signature: String { headers["webhook-signature"] ?? "" }
        /// The event's type from the body, such as `fix.promoted`.
        public var type: String? { (try? JSONParser.parse(body))?["type"]?.stringValue }
    }

    public let port: UInt16
    public let loopback: Loopback
    private let listener: Listener

    /// - Parameter script: the answer to the n-th request (0-based); 200 with an empty body by default.
    public init(on loopback: Loopback = .ipv4, script: @escaping @Sendable (Int) -> Answer = { _ in .status(200) }) throws {
        self.loopback = loopback
        let (listener, port) = try Listener.open(loopback, script: script)
        self.listener = listener
        self.port = port
        Thread.detachNewThread { listener.acceptConnections() }
    }

    /// Answers every request the same way.
    public convenience init(_ answer: Answer, on loopback: Loopback = .ipv4) throws {
        try self.init(on: loopback, script: { _ in answer })
    }

    deinit {
        listener.stop()
    }

    /// Where the sender is to deliver.
    public var url: String { url(path: "/hooks/vouch") }

    /// This receiver's address with another path, such as a GitHub repository's dispatches.
    public func url(path: String) -> String { "http://\(loopback == .ipv4 ? "127.0.0.1" : "[::1]"):\(port)\(path)" }

    /// Every request read whole so far, in the order they came.
    public var requests: [Request] { listener.state.withLock { $0.requests } }

    /// The last request's header fields (names in lower case) and body; empty before the first.
    public var lastMessage: (headers: [String: String], body: [UInt8]) {
        requests.last.map { ($0.headers, $0.body) } ?? ([:], [])
    }

    /// Body bytes the receiver managed to write before the sender hung up.
    public var bytesSent: Int { listener.state.withLock { $0.bytesSent } }

    /// Connections that ended (the sender closed or reset them).
    public var finishedConnections: Int { listener.state.withLock { $0.finished } }

    /// Waits until `count` requests arrived or `seconds` pass; returns what arrived.
    public func wait(for count: Int, seconds: Double = 10) -> [Request] {
        _ = wait(seconds: seconds) { $0.requests.count >= count }
        return requests
    }

    /// Every request so far, once one of type `type` came (or `seconds` passed): a release's own webhook is sent
    /// after the state changed, so seeing the state is not seeing its delivery.
    public func wait(forType type: String, seconds: Double = 10) -> [Request] {
        _ = wait(seconds: seconds) { $0.requests.contains { $0.type == type } }
        return requests
    }

    /// Waits until `condition` holds or `seconds` pass; whether it held.
    public func wait(seconds: Double = 5, until condition: (WebhookReceiver) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition(self) { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return condition(self)
    }

    /// Stops accepting and hangs up every connection.
    public func stop() {
        listener.stop()
    }
}

/// The receiver's socket, what it read and the connections it holds, shared with its threads; those hold this and
/// not the receiver, so the receiver's `deinit` can stop them.
private final class Listener: Sendable {
    struct State {
        var requests: [WebhookReceiver.Request] = []
        var bytesSent = 0
        var open: Set<Int32> = []
        var finished = 0
        var stopped = false
    }

    let descriptor: Int32
    let script: @Sendable (Int) -> WebhookReceiver.Answer
    let state = Mutex(State())

    private init(descriptor: Int32, script: @escaping @Sendable (Int) -> WebhookReceiver.Answer) {
        self.descriptor = descriptor
        self.script = script
    }

    /// A listening socket on the loopback address, port 0, and the port the kernel chose.
    static func open(_ loopback: WebhookReceiver.Loopback, script: @escaping @Sendable (Int) -> WebhookReceiver.Answer) throws -> (Listener, UInt16) {
        switch loopback {
        case .ipv4:
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let descriptor = try listen(on: &address, family: AF_INET)
            return (Listener(descriptor: descriptor, script: script), UInt16(bigEndian: address.sin_port))
        case .ipv6:
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_addr = in6addr_loopback
            let descriptor = try listen(on: &address, family: AF_INET6)
            return (Listener(descriptor: descriptor, script: script), UInt16(bigEndian: address.sin6_port))
        }
    }

    /// Binds `address` (port 0) and listens; `address` then holds the port chosen.
    private static func listen<Address>(on address: inout Address, family: Int32) throws -> Int32 {
        // Close-on-exec, so the vouch and vouchd processes tests start in parallel never hold the socket open.
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EINVAL) }
        var length = socklen_t(MemoryLayout<Address>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound, Glibc.listen(descriptor, 64) == 0 else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EADDRINUSE
            close(descriptor)
            throw POSIXError(code)
        }
        return descriptor
    }

    /// Shutting a listening socket down wakes the blocked accept on Linux; each connection is shut down so its
    /// thread's blocked read or write returns, and the thread closes it.
    func stop() {
        let open = state.withLock { state -> Set<Int32>? in
            guard !state.stopped else { return nil }
            state.stopped = true
            return state.open
        }
        guard let open else { return }
        shutdown(descriptor, Int32(SHUT_RDWR))
        for connection in open { shutdown(connection, Int32(SHUT_RDWR)) }
    }

    func acceptConnections() {
        defer { close(descriptor) }
        while true {
            let connection = accept(descriptor, nil, nil)
            if connection < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            // accept4 is not imported from Glibc; a child spawned in between would only hold a copy briefly.
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            let accepted = state.withLock { state in
                if !state.stopped { state.open.insert(connection) }
                return !state.stopped
            }
            guard accepted else {
                close(connection)
                return
            }
            Thread.detachNewThread { [self] in
                serve(connection)
                state.withLock { $0.open.remove(connection); $0.finished += 1 }
                close(connection)
            }
        }
    }

    /// Answers request after request on one connection until the sender closes it or an answer ends it.
    private func serve(_ connection: Int32) {
        var pending: [UInt8] = []
        while let request = readRequest(connection, &pending) {
            let index = state.withLock { state in
                state.requests.append(WebhookReceiver.Request(method: request.line.method, target: request.line.target, headers: request.headers,
                                                              body: request.body, receivedAt: Date()))
                return state.requests.count - 1
            }
            let answer = script(index)
            if answer.delaySeconds > 0 { Thread.sleep(forTimeInterval: answer.delaySeconds) }
            let fields = answer.headers.map { "\($0.name): \($0.value)\r\n" }.joined()
            switch answer.body {
            case .empty:
                guard send(connection, "HTTP/1.1 \(answer.status) Status\r\n\(fields)Content-Length: 0\r\n\r\n") else { return }
            case .silent:
                drain(connection)
                return
            case .huge(let total):
                let head = "HTTP/1.1 \(answer.status) Status\r\n\(fields)Content-Type: application/octet-stream\r\nContent-Length: \(total)\r\n\r\n"
                guard send(connection, head) else { return }
                let block = [UInt8](repeating: 0x30, count: 64 * 1024)
                var left = total
                while left > 0 {
                    let part = min(left, block.count)
                    guard send(connection, Array(block.prefix(part)), countsAsBody: true) else { return }
                    left -= part
                }
            case .endlessChunks:
                guard send(connection, "HTTP/1.1 \(answer.status) OK\r\n\(fields)Content-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n") else { return }
                let chunk = Array("4000\r\n".utf8) + [UInt8](repeating: 0x61, count: 0x4000) + Array("\r\n".utf8)
                while send(connection, chunk, countsAsBody: true) {}
                return
            }
        }
    }

    /// Reads one request: the head up to the blank line, then `Content-Length` bytes of body; bytes after it stay in
    /// `pending` for the next. Answers `Expect: 100-continue` at once. Nil when the sender closes first.
    private func readRequest(_ connection: Int32, _ pending: inout [UInt8])
        -> (line: (method: String, target: String), headers: [String: String], body: [UInt8])? {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let separator = Array("\r\n\r\n".utf8)
        var head: (end: Int, line: (method: String, target: String), headers: [String: String])?
        while true {
            if head == nil, let end = pending.firstRange(of: separator) {
                let text = String(decoding: pending[..<end.lowerBound], as: UTF8.self)
                let words = (text.components(separatedBy: "\r\n").first ?? "").split(separator: " ").map(String.init)
                let headers = Listener.headers(text)
                head = (end.upperBound, (words.first ?? "", words.count > 1 ? words[1] : ""), headers)
                if headers["expect"]?.lowercased() == "100-continue" { _ = send(connection, "HTTP/1.1 100 Continue\r\n\r\n") }
            }
            if let head {
                let length = Int(head.headers["content-length"] ?? "") ?? 0
                if pending.count - head.end >= length {
                    let body = Array(pending[head.end..<head.end + length])
                    pending.removeFirst(head.end + length)
                    return (head.line, head.headers, body)
                }
            }
            let count = recv(connection, &buffer, buffer.count, 0)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            pending += buffer.prefix(count)
        }
    }

    /// The header lines after the request line, by lowercase name.
    private static func headers(_ head: String) -> [String: String] {
        var headers: [String: String] = [:]
        for line in head.components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            if headers[name] == nil { headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces) }
        }
        return headers
    }

    /// Waits until the sender closes the connection.
    private func drain(_ connection: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while recv(connection, &buffer, buffer.count, 0) > 0 {}
    }

    private func send(_ connection: Int32, _ text: String) -> Bool { send(connection, Array(text.utf8), countsAsBody: false) }

    private func send(_ connection: Int32, _ bytes: [UInt8], countsAsBody: Bool) -> Bool {
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a sender that hung up makes this fail with EPIPE instead of killing the test process.
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return false }
            offset += written
            if countsAsBody { state.withLock { $0.bytesSent += written } }
        }
        return true
    }
}
