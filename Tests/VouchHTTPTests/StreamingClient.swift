import Foundation
import VouchTestSupport

/// A raw HTTP/1.1 client that keeps what it read past a response's head, for answers that go on after it: chunked
/// event streams, read chunk by chunk with their framing checked.
final class StreamingClient {
    let connection: RawConnection
    private var buffer: [UInt8] = []

    init(port: UInt16, timeoutSeconds: Int = 10) throws {
        connection = try RawConnection(port: port, timeoutSeconds: timeoutSeconds)
    }

    func get(_ path: String, method: String = "GET", version: String = "HTTP/1.1", headers: [String] = []) throws {
        try connection.send("\(method) \(path) \(version)\r\nHost: vouch\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n")
    }

    /// The status and headers (lowercased names) of the next response.
    func readHead() throws -> (status: Int, headers: [String: String]) {
        let head = try String(decoding: readLine(through: Array("\r\n\r\n".utf8)), as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let statusLine = lines.removeFirst().split(separator: " ")
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0, headers)
    }

    /// The next chunk's data; empty for the last chunk, whose trailer section is read too. Throws on bad framing.
    func readChunk() throws -> [UInt8] {
        let sizeLine = try String(decoding: readLine(through: Array("\r\n".utf8)).dropLast(2), as: UTF8.self)
        guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else {
            throw RawConnection.Failure("not a chunk size line: '\(sizeLine)'")
        }
        if size == 0 {
            _ = try readLine(through: Array("\r\n".utf8))
            return []
        }
        let data = try read(count: size + 2)
        guard data.suffix(2) == [13, 10] else { throw RawConnection.Failure("a chunk of \(size) bytes not followed by CRLF") }
        return Array(data.dropLast(2))
    }

    /// Chunks until `count` bytes of data have come (a server may put several sends in one chunk).
    func readChunkedData(count: Int) throws -> [UInt8] {
        var data: [UInt8] = []
        while data.count < count {
            let chunk = try readChunk()
            guard !chunk.isEmpty else { throw RawConnection.Failure("the body ended after \(data.count) of \(count) bytes") }
            data += chunk
        }
        return data
    }

    /// Exactly `count` bytes.
    func read(count: Int) throws -> [UInt8] {
        while buffer.count < count { try fill() }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    /// Everything up to and including `terminator`.
    private func readLine(through terminator: [UInt8]) throws -> [UInt8] {
        while true {
            if let end = buffer.firstRange(of: terminator) {
                defer { buffer.removeFirst(end.upperBound) }
                return Array(buffer[..<end.upperBound])
            }
            try fill()
        }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let count = chunk.withUnsafeMutableBytes { recv(connection.descriptor, $0.baseAddress, $0.count, 0) }
        if count == 0 { throw RawConnection.Failure("the server closed the connection") }
        guard count > 0 else { throw RawConnection.Failure("recv: \(String(cString: strerror(errno)))") }
        buffer += chunk[..<count]
    }
}
