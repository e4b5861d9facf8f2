import Foundation

/// sd_notify(3) by hand: datagrams to `$NOTIFY_SOCKET`, so `Type=notify` and the watchdog work without libsystemd.
struct SystemdNotifier: Sendable {
    let socketPath: String?

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        socketPath = environment["NOTIFY_SOCKET"]
    }

    /// Half the watchdog period systemd asked for, or nil when there is no watchdog.
    static func watchdogInterval(environment: [String: String] = ProcessInfo.processInfo.environment) -> Double? {
        guard let text = environment["WATCHDOG_USEC"], let microseconds = Double(text), microseconds > 0 else { return nil }
        return microseconds / 2_000_000
    }

    func notify(_ state: String) {
        guard let socketPath, !socketPath.isEmpty else { return }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var pathBytes = Array(socketPath.utf8)
        // A leading '@' names a socket in the abstract namespace, written with a NUL first byte.
        if pathBytes.first == UInt8(ascii: "@") { pathBytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: pathBytes)
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count)
        let message = Array(state.utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                message.withUnsafeBytes { sendto(descriptor, $0.baseAddress, $0.count, 0, socketAddress, length) }
            }
        }
    }
}
