import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A loopback SMTP server for the mail part: it speaks just enough SMTP (greeting, EHLO, MAIL, RCPT, DATA, RSET, NOOP,
/// QUIT) to accept every message at once, so the figure is what vouchd's side costs: claiming, writing the mail,
/// libcurl's exchange and the record. One thread per connection; it counts the messages it accepted.
final class SMTPResponder: Sendable {
    let port: UInt16
    private let listener: Int32
    private let accepted = Atomic<Int>(0)

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw BenchError("socket failed: \(String(cString: strerror(errno)))") }
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw -> Bool in
                bind(listener, raw, length) == 0 && getsockname(listener, raw, &length) == 0 && listen(listener, 64) == 0
            }
        }
        guard listening else { throw BenchError("bind or listen failed: \(String(cString: strerror(errno)))") }
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "bench.smtp.accept"
        thread.start()
    }

    var messages: Int { accepted.load(ordering: .relaxed) }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        func reply(_ text: String) { _ = Array((text + "\r\n").utf8).withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
        reply("220 bench ESMTP")
        var buffer: [UInt8] = []
        var inData = false
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return }
            buffer += chunk[0..<count]
            while true {
                if inData {
                    // The message ends with a line holding one dot.
                    guard let end = SMTPResponder.find([0x0D, 0x0A, 0x2E, 0x0D, 0x0A], in: buffer) else { break }
                    buffer.removeFirst(end + 5)
                    inData = false
                    accepted.add(1, ordering: .relaxed)
                    reply("250 accepted")
                    continue
                }
                guard let end = SMTPResponder.find([0x0D, 0x0A], in: buffer) else { break }
                let line = String(decoding: buffer[0..<end], as: UTF8.self).uppercased()
                buffer.removeFirst(end + 2)
                if line.hasPrefix("EHLO") || line.hasPrefix("HELO") {
                    reply("250-bench\r\n250 8BITMIME")
                } else if line.hasPrefix("DATA") {
                    // Whatever comes before the data's end is the message; a CRLF already read counts for it.
                    buffer = [0x0D, 0x0A] + buffer
                    inData = true
                    reply("354 go on")
                } else if line.hasPrefix("QUIT") {
                    reply("221 bye")
                    return
                } else {
                    reply("250 ok")
                }
            }
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] && Array(haystack[start..<start + needle.count]) == needle {
            return start
        }
        return nil
    }
}
