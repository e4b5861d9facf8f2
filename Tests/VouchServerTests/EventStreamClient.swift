import Foundation
import VouchTestSupport

/// An OFREP event stream read the way `EventSource` reads it: a GET, then `text/event-stream` in chunks, split into
/// events (comments skipped). Built on RawConnection so a test can also see exactly when the server closes.
final class EventStreamClient {
    struct Event: Equatable {
        var id: String?
        var event: String?
        var data: String
    }

    let status: Int
    let headers: [String: String]
    private let connection: RawConnection
    /// Bytes received and not yet decoded from chunked framing.
    private var raw: [UInt8] = []
    /// Decoded text not yet split into events.
    private var text = ""
    private(set) var closed = false

    /// Opens `url` (`http://127.0.0.1:PORT/path?query`); the head is read before this returns.
    init(url: String, lastEventID: String? = nil, sourceAddress: String = "127.0.0.1") throws {
        guard let components = URLComponents(string: url), let port = components.port else { throw RawConnection.Failure("not an address: \(url)") }
        let connection = try RawConnection(port: UInt16(port), sourceAddress: sourceAddress)
        self.connection = connection
        var request = "GET \(components.percentEncodedPath)\(components.percentEncodedQuery.map { "?" + $0 } ?? "") HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        request += "Accept: text/event-stream\r\n"
        if let lastEventID { request += "Last-Event-ID: \(lastEventID)\r\n" }
        try connection.send(request + "\r\n")
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            if let end = buffer.firstRange(of: Array("\r\n\r\n".utf8)) {
                var lines = String(decoding: buffer[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst().split(separator: " ")
                status = statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0
                var headers: [String: String] = [:]
                for line in lines {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                self.headers = headers
                raw = Array(buffer[end.upperBound...])
                // The first chunks may have come with the head.
                decodeChunks()
                return
            }
            let count = chunk.withUnsafeMutableBytes { recv(connection.descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw RawConnection.Failure("the server closed before the head was complete") }
            buffer += chunk[..<count]
        }
    }

    /// The next event within `seconds`, or nil when none came (or the stream ended: see `closed`).
    func nextEvent(within seconds: Double) -> Event? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let event = takeEvent() { return event }
            guard !closed, Date() < deadline else { return nil }
            receive(until: deadline)
        }
    }

    /// Events arriving within `seconds`, all of them.
    func events(within seconds: Double) -> [Event] {
        let deadline = Date().addingTimeInterval(seconds)
        var events: [Event] = []
        while Date() < deadline, !closed {
            if let event = nextEvent(within: deadline.timeIntervalSinceNow) { events.append(event) }
        }
        while let event = takeEvent() { events.append(event) }
        return events
    }

    /// Whether the server ends the stream within `seconds` (anything it sends meanwhile is kept for `nextEvent`).
    func closes(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !closed, Date() < deadline { receive(until: deadline) }
        return closed
    }

    private func receive(until deadline: Date) {
        let remaining = max(0.01, deadline.timeIntervalSinceNow)
        var timeout = timeval(tv_sec: Int(remaining), tv_usec: Int((remaining - remaining.rounded(.down)) * 1_000_000))
        setsockopt(connection.descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let count = chunk.withUnsafeMutableBytes { recv(connection.descriptor, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            raw += chunk[..<count]
            decodeChunks()
        } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            closed = true
        }
    }

    /// Moves complete chunks from `raw` to `text`; the zero-length chunk marks the end of the stream.
    private func decodeChunks() {
        while let lineEnd = raw.firstRange(of: Array("\r\n".utf8)) {
            let sizeText = String(decoding: raw[..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first.map(String.init) ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { return }
            if size == 0 {
                closed = true
                raw = []
                return
            }
            let start = lineEnd.upperBound
            guard raw.count >= start + size + 2 else { return }
            text += String(decoding: raw[start..<start + size], as: UTF8.self)
            raw.removeFirst(start + size + 2)
        }
    }

    private func takeEvent() -> Event? {
        while let end = text.range(of: "\n\n") {
            let block = String(text[..<end.lowerBound])
            text.removeSubrange(..<end.upperBound)
            var event = Event(id: nil, event: nil, data: "")
            var sawField = false
            for line in block.split(separator: "\n", omittingEmptySubsequences: false) where !line.hasPrefix(":") {
                let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                let value = parts.count > 1 ? String(parts[1].hasPrefix(" ") ? parts[1].dropFirst() : parts[1]) : ""
                switch parts[0] {
                case "id": event.id = value
                case "event": event.event = value
                case "data": event.data += event.data.isEmpty ? value : "\n" + value
                default: continue
                }
                sawField = true
            }
            if sawField { return event }
        }
        return nil
    }
}
