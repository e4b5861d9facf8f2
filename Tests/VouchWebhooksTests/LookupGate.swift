import Dispatch
import Foundation
import Synchronization
@testable import VouchWebhooks

/// A stand-in for getaddrinfo that never returns until the test opens the gate: a DNS server that drops every query.
/// It records each name looked up and the name of the thread it ran on.
final class LookupGate: Sendable {
    private let opened = Mutex(false)
    private let openSignal = NSCondition()
    private let started = DispatchSemaphore(value: 0)
    private let log = Mutex<[(name: String, thread: String)]>([])
    private let answer: @Sendable (String) -> ResolveResult

    init(answer: @escaping @Sendable (String) -> ResolveResult = { _ in .addresses(["93.184.215.14"]) }) {
        self.answer = answer
    }

    var lookup: HostResolver.Lookup {
        { [self] name in
            let thread = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            log.withLock { $0.append((name, thread.trimmingCharacters(in: .newlines))) }
            started.signal()
            openSignal.lock()
            while !opened.withLock({ $0 }) { openSignal.wait() }
            openSignal.unlock()
            return answer(name)
        }
    }

    /// Waits until `count` more lookups have started (30 s at most: a bound, not a timing assumption).
    func waitForLookups(_ count: Int) -> Bool {
        (0..<count).allSatisfy { _ in started.wait(timeout: .now() + 30) == .success }
    }

    /// Lets every stuck lookup and every later one return.
    func open() {
        openSignal.lock()
        opened.withLock { $0 = true }
        openSignal.broadcast()
        openSignal.unlock()
    }

    var names: [String] { log.withLock { $0.map(\.name) } }
    var threads: [String] { log.withLock { $0.map(\.thread) } }
}
