import Foundation

/// Asks vouchd's own `/healthz` through its listening socket, so the systemd watchdog is only fed while
/// the HTTP server really answers (a stuck server gets restarted).
struct HealthProbe: Sendable {
    let host: String
    let port: UInt16
    let timeoutSeconds: Int

    init(listenHost: String, port: UInt16, timeoutSeconds: Int) {
        // A wildcard address is reached through the loopback of its family.
        switch listenHost {
        case "0.0.0.0", "": host = "127.0.0.1"
        case "::": host = "::1"
        default: host = listenHost
        }
        self.port = port
        self.timeoutSeconds = max(1, timeoutSeconds)
    }

    /// True when `/healthz` answered 200 within the timeout.
    func check() -> Bool {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let address = result else { return false }
        defer { freeaddrinfo(result) }
        let descriptor = socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 else { return false }
        let request = Array("GET /healthz HTTP/1.1\r\nHost: vouchd\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else { return false }
        var answer = [UInt8](repeating: 0, count: 64)
        var received = 0
        while received < 12 {
            let count = answer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress! + received, $0.count - received, 0) }
            guard count > 0 else { return false }
            received += count
        }
        return answer[0..<12].elementsEqual("HTTP/1.1 200".utf8)
    }
}
