import Foundation
import Synchronization
import VouchJSON

/// A webhook receiver on 127.0.0.1, port 0, written on plain sockets: it answers every request `200 OK` with an
/// empty body, and keeps each request's headers and body. One connection at a time, which is all a test needs.
///
/// Call `stop()` in a `defer`, so the accepting thread ends and the socket is closed even when the test fails.
final class WebhookReceiver: Sendable {
    struct Request: Sendable {
        /// Header names in lowercase.
        var headers: [String: String]
        var body: [UInt8]

        /// The event's type from the body, such as `fix.promoted`.
        var type: String? { (try? JSONParser.parse(body))?["type"]?.stringValue }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let port: UInt16
    private let listener: Int32
    private let received = Mutex<[Request]>([])
    private let finished = DispatchSemaphore(value: 0)

    init() throws {
        // Close-on-exec, so the vouch and vouchd processes tests start in parallel never hold the socket open.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard bound, listen(listener, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(listener)
            throw Failure(description: "cannot listen on 127.0.0.1: \(reason)")
        }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in acceptConnections() }
    }

    /// Where vouchd is to send the events.
    var url: String { "http://127.0.0.1:\(port)/hooks/vouch" }

    var requests: [Request] { received.withLock { $0 } }

    /// Waits until `count` requests arrived or the deadline passes; returns what arrived.
    func wait(for count: Int, seconds: Double = 10) -> [Request] {
        let deadline = Date().addingTimeInterval(seconds)
        while requests.count < count && Date() < deadline { usleep(20_000) }
        return requests
    }

    /// Stops accepting (shutting a listening socket down wakes the blocked accept on Linux) and closes the socket.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        finished.wait()
        close(listener)
    }

    private func acceptConnections() {
        defer { finished.signal() }
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            // accept4 is not imported from Glibc; a child spawned in between would only hold a copy briefly.
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            if let request = WebhookReceiver.read(connection) {
                received.withLock { $0.append(request) }
                let answer = Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
                _ = answer.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
            close(connection)
        }
    }

    /// Reads one request: the head up to the blank line, then `Content-Length` bytes of body. Nil when the peer
    /// closes early or stays silent for 5 s.
    private static func read(_ connection: Int32) -> Request? {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        _ = setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        var head: (end: Int, headers: [String: String])?
        while head.map({ bytes.count < $0.end + (Int($0.headers["content-length"] ?? "") ?? 0) }) ?? true {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            bytes += buffer[..<count]
            if head == nil, let blank = blankLine(in: bytes) {
                head = (blank + 4, headers(String(decoding: bytes[..<blank], as: UTF8.self)))
            }
        }
        guard let head else { return nil }
        return Request(headers: head.headers, body: Array(bytes[head.end...]))
    }

    /// Where "\r\n\r\n" starts, if it has arrived.
    private static func blankLine(in bytes: [UInt8]) -> Int? {
        let marker: [UInt8] = [13, 10, 13, 10]
        guard bytes.count >= 4 else { return nil }
        return (0...(bytes.count - 4)).first { Array(bytes[$0..<$0 + 4]) == marker }
    }

    /// The header lines after the request line, by lowercase name.
    private static func headers(_ head: String) -> [String: String] {
        var headers: [String: String] = [:]
        for line in head.components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return headers
    }
}
