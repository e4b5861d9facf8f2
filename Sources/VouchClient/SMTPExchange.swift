import CCurl

/// One message's upload and what the SMTP exchange has reached, fed by libcurl's read and debug callbacks.
///
/// Of what passes through the debug callback it keeps only the verb of each command (never its argument: `MAIL FROM`
/// and `RCPT TO` carry addresses, `AUTH` the credentials) and the code of each reply (never its text).
final class SMTPExchange {
    private let message: [UInt8]
    private var offset = 0
    /// The step of the last command sent.
    private(set) var step: SMTPError.Step = .connection
    /// The code of the last reply before `QUIT`, whose own `221` says nothing of what failed.
    private(set) var lastReplyCode: Int?
    private var quitting = false

    init(message: [UInt8]) {
        self.message = message
    }

    static let readCallback: vouch_curl_read_callback = { buffer, size, count, context in
        guard let buffer, let context else { return 0 }
        let exchange = Unmanaged<SMTPExchange>.fromOpaque(context).takeUnretainedValue()
        let length = min(size * count, exchange.message.count - exchange.offset)
        exchange.message.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress, length > 0 else { return }
            UnsafeMutableRawPointer(buffer).copyMemory(from: base + exchange.offset, byteCount: length)
        }
        exchange.offset += length
        return length
    }

    static let debugCallback: vouch_curl_debug_callback = { _, type, data, size, context in
        guard let data, let context else { return 0 }
        let exchange = Unmanaged<SMTPExchange>.fromOpaque(context).takeUnretainedValue()
        let line = UnsafeRawBufferPointer(start: data, count: size)
        switch type {
        case CURLINFO_HEADER_OUT: exchange.sent(verb: line.prefix { $0 != 0x20 && $0 != 0x0D && $0 != 0x0A })
        case CURLINFO_HEADER_IN: exchange.received(line)
        default: break
        }
        return 0
    }

    private func sent(verb: UnsafeRawBufferPointer.SubSequence) {
        switch String(decoding: verb, as: UTF8.self).uppercased() {
        case "EHLO", "HELO": step = .hello
        case "STARTTLS": step = .tls
        case "AUTH": step = .authentication
        case "MAIL": step = .sender
        case "RCPT": step = .recipient
        case "DATA": step = .data
        case "QUIT": quitting = true
        default: return
        }
    }

    private func received(_ line: UnsafeRawBufferPointer) {
        guard !quitting, line.count >= 3, line.prefix(3).allSatisfy({ (0x30...0x39).contains($0) }) else { return }
        lastReplyCode = line.prefix(3).reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
}
