import Foundation
import Synchronization
import VouchTestSupport

/// Connections that hold a server's places without finishing a request: one thread per source address keeps
/// `connectionsPerAddress` open (a third idle, a third trickling headers, a third trickling a body, a byte
/// every `trickleSeconds`), and opens a new one whenever the server closes one.
final class SlowClientAttack: Sendable {
    enum Kind: CaseIterable { case idle, slowHeaders, slowBody }

    private let port: UInt16
    private let addresses: [String]
    private let connectionsPerAddress: Int
    private let tickSeconds: Double
    private let trickleSeconds: Double
    private let stopping = Atomic<Bool>(false)
    private let opened = Atomic<Int>(0)
    private let finished = DispatchSemaphore(value: 0)

    init(port: UInt16, addresses: [String], connectionsPerAddress: Int, tickSeconds: Double, trickleSeconds: Double) {
        self.port = port
        self.addresses = addresses
        self.connectionsPerAddress = connectionsPerAddress
        self.tickSeconds = tickSeconds
        self.trickleSeconds = trickleSeconds
    }

    var connectionsOpened: Int { opened.load(ordering: .relaxed) }

    func start() {
        for address in addresses {
            Thread { [self] in
                hold(from: address)
                finished.signal()
            }.start()
        }
    }

    /// Stops every attacker thread and waits until each has closed its connections; safe to call twice.
    func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        for _ in addresses { finished.wait() }
    }

    private func hold(from address: String) {
        var held: [(connection: RawConnection, kind: Kind, nextByte: Date)?] = Array(repeating: nil, count: connectionsPerAddress)
        // Bounded: a test that forgets to stop the attack still ends it after a minute.
        let end = Date().addingTimeInterval(60)
        while !stopping.load(ordering: .acquiring), Date() < end {
            for index in held.indices {
                if let entry = held[index], !entry.connection.isClosedNow {
                    if entry.kind != .idle, Date() >= entry.nextByte {
                        if (try? entry.connection.send("x")) == nil { held[index] = nil } else { held[index]?.nextByte = Date().addingTimeInterval(trickleSeconds) }
                    }
                    continue
                }
                let kind = Kind.allCases[index % Kind.allCases.count]
                guard let connection = try? RawConnection(port: port, sourceAddress: address, timeoutSeconds: 1) else {
                    held[index] = nil
                    continue
                }
                opened.add(1, ordering: .relaxed)
                switch kind {
                case .idle: break
                case .slowHeaders: try? connection.send("POST /ofrep/v1/evaluate/flags/f HTTP/1.1\r\nHost: vouch\r\nX-Slow: ")
                case .slowBody: try? connection.send("POST /ofrep/v1/evaluate/flags/f HTTP/1.1\r\nHost: vouch\r\nContent-Length: 100000\r\n\r\n{")
                }
                held[index] = (connection, kind, Date().addingTimeInterval(trickleSeconds))
            }
            Thread.sleep(forTimeInterval: tickSeconds)
        }
    }
}
