import Foundation
import Synchronization

/// A misbehaving webhook receiver on 127.0.0.1 (or ::1), port 0, over plain sockets: it reads each request whole, then
/// answers as told, including ways an HTTP library would not (never, or with a body that does not end).
final class RawReceiver: Sendable {
    enum Loopback: Sendable {
        case ipv4, ipv6
    }

    enum Behaviour: Sendable {
        /// A plain answer with an empty body.
        case status(Int)
        /// Reads the request and never answers; holds the connection until the sender gives up.
        case silent
        /// A redirect to `location`.
        case redirect(status: Int, location: String)
        /// `status` with a `Content-Length` body of `bytes` bytes.
        case hugeBody(status: Int, bytes: Int)
        /// 200 with a chunked body that never ends.
        case endlessChunks
    }

    let port: UInt16
    let loopback: Loopback
    private let listener: Int32
    private let behaviour: Behaviour
    private let state = Mutex(State())

    private struct State {
        var requests = 0
        var bytesSent = 0
        var open: Set<Int32> = []
        var finished = 0
        var lastRequest: [UInt8] = []
    }

    init(_ behaviour: Behaviour, on loopback: Loopback = .ipv4) throws {
        self.behaviour = behaviour
        self.loopback = loopback
        let descriptor: Int32
        switch loopback {
        case .ipv4:
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            (descriptor, address) = try RawReceiver.listen(on: address, family: AF_INET)
            port = UInt16(bigEndian: address.sin_port)
        case .ipv6:
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_addr = in6addr_loopback
            (descriptor, address) = try RawReceiver.listen(on: address, family: AF_INET6)
            port = UInt16(bigEndian: address.sin6_port)
        }
        listener = descriptor
        let acceptor = Thread { [self] in acceptLoop() }
        acceptor.start()
    }

    /// A listening socket bound to `address` (port 0), and the address with the port the kernel chose.
    private static func listen<Address>(on address: Address, family: Int32) throws -> (Int32, Address) {
        var address = address
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        var length = socklen_t(MemoryLayout<Address>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        guard bound == 0, Glibc.listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        return (descriptor, address)
    }

    /// Stops accepting and hangs up every connection; the threads hold the receiver until then, so call it (`defer`).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for connection in state.withLock({ $0.open }) { shutdown(connection, Int32(SHUT_RDWR)) }
    }

    var url: String { "http://\(loopback == .ipv4 ? "127.0.0.1" : "[::1]"):\(port)/hooks/vouch" }
    /// The last request read, head and body as they came.
    var lastRequest: [UInt8] { state.withLock { $0.lastRequest } }
    /// Requests read whole.
    var requests: Int { state.withLock { $0.requests } }
    /// Body bytes the receiver managed to write before the sender hung up.
    var bytesSent: Int { state.withLock { $0.bytesSent } }
    /// Connections that ended (the sender closed or reset them).
    var finishedConnections: Int { state.withLock { $0.finished } }

    /// The last request's header fields (names in lower case) and body.
    var lastMessage: (headers: [String: String], body: [UInt8]) {
        let bytes = lastRequest
        guard let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { return ([:], []) }
        var headers: [String: String] = [:]
        for line in String(decoding: bytes[..<end.lowerBound], as: UTF8.self).split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (headers, Array(bytes[end.upperBound...]))
    }

    /// Waits until `condition` holds or `seconds` pass.
    func wait(seconds: Double = 5, until condition: (RawReceiver) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition(self) { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return condition(self)
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            state.withLock { _ = $0.open.insert(connection) }
            let handler = Thread { [self] in
                serve(connection)
                state.withLock { $0.open.remove(connection); $0.finished += 1 }
                close(connection)
            }
            handler.start()
        }
    }

    private func serve(_ connection: Int32) {
        // One request per connection is enough: every behaviour ends the connection or keeps it busy.
        guard let request = readRequest(connection) else { return }
        state.withLock { $0.requests += 1; $0.lastRequest = request }
        switch behaviour {
        case .status(let code):
            _ = send(connection, "HTTP/1.1 \(code) Status\r\nContent-Length: 0\r\n\r\n")
            drain(connection)
        case .silent:
            drain(connection)
        case .redirect(let code, let location):
            _ = send(connection, "HTTP/1.1 \(code) Moved\r\nLocation: \(location)\r\nContent-Length: 0\r\n\r\n")
            drain(connection)
        case .hugeBody(let code, let total):
            guard send(connection, "HTTP/1.1 \(code) Status\r\nContent-Type: application/octet-stream\r\nContent-Length: \(total)\r\n\r\n") else { return }
            let block = [UInt8](repeating: 0x30, count: 64 * 1024)
            var left = total
            while left > 0 {
                let part = min(left, block.count)
                guard send(connection, Array(block.prefix(part)), countsAsBody: true) else { return }
                left -= part
            }
            drain(connection)
        case .endlessChunks:
            guard send(connection, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n") else { return }
            let chunk = Array("4000\r\n".utf8) + [UInt8](repeating: 0x61, count: 0x4000) + Array("\r\n".utf8)
            while send(connection, chunk, countsAsBody: true) {}
        }
    }

    /// Reads the head and a `Content-Length` body.
    private func readRequest(_ connection: Int32) -> [UInt8]? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let separator = Array("\r\n\r\n".utf8)
        while true {
            if let end = received.firstRange(of: separator) {
                let head = String(decoding: received[..<end.lowerBound], as: UTF8.self).lowercased()
                let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if received.count - end.upperBound >= length { return received }
            }
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            received += buffer.prefix(count)
        }
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
