import CCurl

/// Gathers a response's headers and body from libcurl's callbacks.
final class ResponseCollector {
    let maxBodyBytes: Int?
    /// For a stream: takes each body chunk of a 2xx answer as it arrives instead of keeping it; false stops the transfer.
    let receive: (([UInt8]) -> Bool)?
    /// For a stream: asked about once a second even while nothing arrives; true stops the transfer.
    let shouldStop: (() -> Bool)?
    /// The status of the last status line, 0 before one arrived.
    var status = 0
    var body: [UInt8] = []
    var bodyBytesReceived = 0
    var headers: [String: String] = [:]
    var headersComplete = false
    let allowsPeer: ((String) -> Bool)?
    /// The address of a connection `allowsPeer` refused.
    var refusedPeer: String?

    init(maxBodyBytes: Int?, allowsPeer: ((String) -> Bool)? = nil, receive: (([UInt8]) -> Bool)? = nil, shouldStop: (() -> Bool)? = nil) {
        self.maxBodyBytes = maxBodyBytes
        self.allowsPeer = allowsPeer
        self.receive = receive
        self.shouldStop = shouldStop
    }

    static let progressCallback: vouch_curl_xferinfo_callback = { context, _, _, _, _ in
        guard let context else { return 1 }
        let collector = Unmanaged<ResponseCollector>.fromOpaque(context).takeUnretainedValue()
        return collector.shouldStop?() == true ? 1 : 0
    }

    static let peerCallback: vouch_curl_prereq_callback = { context, primaryAddress, _, _, _ in
        guard let context else { return CURL_PREREQFUNC_ABORT }
        let collector = Unmanaged<ResponseCollector>.fromOpaque(context).takeUnretainedValue()
        let address = primaryAddress.map { String(cString: $0) } ?? ""
        guard let allowsPeer = collector.allowsPeer, !allowsPeer(address) else { return CURL_PREREQFUNC_OK }
        collector.refusedPeer = address
        return CURL_PREREQFUNC_ABORT
    }

    static let bodyCallback: vouch_curl_write_callback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let collector = Unmanaged<ResponseCollector>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        collector.bodyBytesReceived += length
        if let receive = collector.receive, (200..<300).contains(collector.status) {
            let chunk = data.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
            return receive(chunk) ? length : 0
        }
        if let limit = collector.maxBodyBytes, collector.bodyBytesReceived > limit {
            // "If that amount differs from the amount passed to your callback function, it signals an error
            // condition to the library": the transfer stops, and what was kept stays within the cap.
            return 0
        }
        data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            collector.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: length))
        }
        return length
    }

    static let headerCallback: vouch_curl_write_callback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let collector = Unmanaged<ResponseCollector>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        let line = data.withMemoryRebound(to: UInt8.self, capacity: length) { String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self) }
        if line.hasPrefix("HTTP/") {
            // A new status line (after a 1xx): the headers so far belonged to an interim answer.
            collector.headers = [:]
            collector.headersComplete = false
            collector.status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        } else if line == "\r\n" || line == "\n" {
            collector.headersComplete = true
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            // A repeated header is one list (RFC 9110, 5.3); Set-Cookie values may hold commas, so they go one per line.
            collector.headers[name] = collector.headers[name].map { $0 + (name == "set-cookie" ? "\n" : ", ") + value } ?? value
        }
        return length
    }
}
