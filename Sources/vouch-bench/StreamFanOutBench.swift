import CEpoll
import Foundation
import VouchClient
import VouchJSON

/// Holds many OFREP event streams open against one vouchd and measures what they cost and how fast a change reaches
/// them: the resident memory vouchd adds per stream, and for each change the time from just before the API request
/// that makes it to each stream's receipt of the `refetchEvaluation` event (the answer's own time is reported beside).
///
/// One thread and epoll for every stream, so the client itself stays small on a two-core machine. Streams come from
/// many loopback source addresses (127.0.1.1, 127.0.1.2, … then 127.0.2.1, …; 250 per third byte) because vouchd
/// limits connections per address, and each address has about 28,000 local ports.
enum StreamFanOutBench {
    struct Settings {
        var baseURL: String
        var adminToken: String
        var sdkToken: String
        var streams: Int
        var addresses: Int
        var changes: Int
        var fix: String
        var daemonPID: Int32
        /// After the measurements, keep the streams open this long (another tool measures OFREP meanwhile).
        var holdSeconds: Double
    }

    final class Stream {
        let descriptor: Int32
        var buffer: [UInt8] = []
        var open = false
        /// When each change's event arrived, by change number.
        var received: [Int: UInt64] = [:]

        init(descriptor: Int32) { self.descriptor = descriptor }
    }

    static func run(_ settings: Settings) throws {
        raiseOpenFileLimit(to: settings.streams + 1_024)
        let client = HTTPClient(timeoutSeconds: 30)
        let bulk = try client.send(method: "POST", url: settings.baseURL + "/ofrep/v1/evaluate/flags",
                                   headers: [("Authorization", "Bearer \(settings.sdkToken)"), ("Content-Type", "application/json")],
                                   body: Array(#"{"context":{"targetingKey":"bench-user"}}"#.utf8))
        guard bulk.status == 200, let url = (try? JSONParser.parse(bulk.body))?["eventStreams"]?.arrayValue?.first?["url"]?.stringValue,
              let components = URLComponents(string: url), let port = components.port else {
            throw BenchError("the bulk answer names no event stream (status \(bulk.status)); is ofrep.event_streams on?")
        }
        let target = (components.percentEncodedPath) + "?" + (components.percentEncodedQuery ?? "")
        let residentBefore = residentKiB(settings.daemonPID)
        let streams = Streams()
        let request = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n".utf8)
        let openStarted = DispatchTime.now().uptimeNanoseconds
        for index in 0..<settings.streams {
            let source = sourceAddress(index % max(1, min(settings.addresses, maxAddresses)))
            let descriptor = try connect(port: UInt16(port), from: source)
            _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            streams.add(Stream(descriptor: descriptor))
            // Read what has come so far every few hundred connections, so no server buffer waits on us.
            if index % 500 == 499 { pump(streams, change: -1, until: 0) }
        }
        // A minute, or longer for very many streams (about 2,000 a second open on two shared cores).
        let openDeadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(60, settings.streams / 1_000)) * 1_000_000_000
        while streams.all.contains(where: { !$0.open }), DispatchTime.now().uptimeNanoseconds < openDeadline {
            pump(streams, change: -1, until: DispatchTime.now().uptimeNanoseconds + 100_000_000)
        }
        let opened = streams.all.filter(\.open).count
        let openSeconds = Double(DispatchTime.now().uptimeNanoseconds - openStarted) / 1e9
        guard opened == settings.streams else {
            throw BenchError("only \(opened) of \(settings.streams) streams opened in time; raise ofrep.max_streams or http.max_connections?")
        }
        Thread.sleep(forTimeInterval: 1)
        let residentAfter = residentKiB(settings.daemonPID)
        Report.line("Streams open", String(opened))
        Report.line("Streams opening s", Report.fixed(openSeconds, 2))
        Report.line("vouchd resident MiB before streams", Report.fixed(Double(residentBefore) / 1024, 1))
        Report.line("vouchd resident MiB with streams", Report.fixed(Double(residentAfter) / 1024, 1))
        Report.line("vouchd resident KiB per stream", Report.fixed(Double(residentAfter - residentBefore) / Double(opened), 2))

        var latencies: [Double] = []
        var lastPerChange: [Double] = []
        var answerTimes: [Double] = []
        for change in 0..<settings.changes {
            let started = DispatchTime.now().uptimeNanoseconds
            let answer = try client.send(method: "POST", url: settings.baseURL + "/v1/fixes/\(settings.fix)/targets",
                                         headers: [("Authorization", "Bearer \(settings.adminToken)"), ("Content-Type", "application/json")],
                                         body: Array(#"{"add":["bench-change-\#(change)"]}"#.utf8))
            let answered = DispatchTime.now().uptimeNanoseconds
            guard answer.status == 200 else { throw BenchError("the change answered \(answer.status): \(answer.text.prefix(200))") }
            answerTimes.append(Double(answered - started) / 1e6)
            let waitSeconds = max(10, settings.streams / 5_000)
            let deadline = started + UInt64(waitSeconds) * 1_000_000_000
            while streams.all.contains(where: { $0.received[change] == nil }), DispatchTime.now().uptimeNanoseconds < deadline {
                pump(streams, change: change, until: min(deadline, DispatchTime.now().uptimeNanoseconds + 50_000_000))
            }
            let times = streams.all.compactMap { $0.received[change] }.map { Double($0 - started) / 1e6 }
            guard times.count == opened else {
                throw BenchError("change \(change + 1): \(opened - times.count) of \(opened) streams heard nothing within \(waitSeconds) s")
            }
            latencies += times
            lastPerChange.append(times.max() ?? .nan)
            // Let keep-alives and the refetch-free quiet settle between changes.
            Thread.sleep(forTimeInterval: 0.5)
            pump(streams, change: -1, until: 0)
        }
        latencies.sort()
        Report.line("Fan-out changes", String(settings.changes))
        Report.line("Fan-out change answer ms (median)", Report.fixed(Report.median(answerTimes), 2))
        Report.line("Fan-out ms p50", Report.fixed(Report.percentile(latencies, 0.50), 1))
        Report.line("Fan-out ms p99", Report.fixed(Report.percentile(latencies, 0.99), 1))
        Report.line("Fan-out ms to the last stream (median of changes)", Report.fixed(Report.median(lastPerChange), 1))
        Report.line("Fan-out ms to the last stream (max)", Report.fixed(lastPerChange.max() ?? .nan, 1))
        if settings.holdSeconds > 0 {
            Report.line("Streams held s", Report.fixed(settings.holdSeconds, 0))
            FileHandle.standardOutput.synchronizeFile()
            let end = DispatchTime.now().uptimeNanoseconds + UInt64(settings.holdSeconds * 1e9)
            while DispatchTime.now().uptimeNanoseconds < end { pump(streams, change: -1, until: min(end, DispatchTime.now().uptimeNanoseconds + 500_000_000)) }
            let stillOpen = streams.all.filter { fcntl($0.descriptor, F_GETFD) >= 0 && $0.open }.count
            Report.line("Streams still open after holding", String(stillOpen))
        }
        for stream in streams.all { close(stream.descriptor) }
    }

    /// Every stream by descriptor, watched by one epoll instance.
    final class Streams {
        let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        var byDescriptor: [Int32: Stream] = [:]
        var all: [Stream] { Array(byDescriptor.values) }

        func add(_ stream: Stream) {
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.fd = stream.descriptor
            epoll_ctl(epoll, EPOLL_CTL_ADD, stream.descriptor, &event)
            byDescriptor[stream.descriptor] = stream
        }

        deinit { close(epoll) }
    }

    /// Reads whatever is ready until `until` (0: only what is ready now); a stream is open once its head arrived,
    /// and an event for `change` is timed when its bytes arrive.
    static func pump(_ streams: Streams, change: Int, until: UInt64) {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        var events = [epoll_event](repeating: epoll_event(), count: 1_024)
        repeat {
            let now = DispatchTime.now().uptimeNanoseconds
            let wait = until > now ? Int32(min(100, (until - now) / 1_000_000)) : 0
            let ready = epoll_wait(streams.epoll, &events, Int32(events.count), wait)
            guard ready > 0 else { if until <= DispatchTime.now().uptimeNanoseconds { return } else { continue } }
            let arrived = DispatchTime.now().uptimeNanoseconds
            for index in 0..<Int(ready) {
                guard let stream = streams.byDescriptor[events[index].data.fd] else { continue }
                let count = chunk.withUnsafeMutableBytes { recv(stream.descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if count <= 0 {
                    if count == 0 {
                        // Closed by the server: stop watching it.
                        epoll_ctl(streams.epoll, EPOLL_CTL_DEL, stream.descriptor, nil)
                        stream.open = false
                    }
                    continue
                }
                stream.buffer += chunk[..<count]
                if !stream.open, let end = stream.buffer.firstRange(of: Array("\r\n\r\n".utf8)) {
                    stream.open = stream.buffer.starts(with: Array("HTTP/1.1 200".utf8))
                    stream.buffer.removeFirst(end.upperBound)
                }
                if change >= 0, stream.received[change] == nil, stream.buffer.firstRange(of: Array("refetchEvaluation".utf8)) != nil {
                    stream.received[change] = arrived
                }
                // Only the newest bytes matter for finding the next event.
                if stream.open, stream.buffer.count > 4_096 || change < 0 { stream.buffer.removeAll(keepingCapacity: true) }
            }
        } while DispatchTime.now().uptimeNanoseconds < until
    }

    static func connect(port: UInt16, from source: String) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno))); raise the open file limit") }
        var local = address(source, port: 0)
        var remote = address("127.0.0.1", port: port)
        let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw BenchError("connect from \(source): \(reason)")
        }
        return descriptor
    }

    static func address(_ text: String, port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, text, &address.sin_addr)
        return address
    }

    /// VmRSS of the process, in KiB.
    static func residentKiB(_ pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// Addresses `sourceAddress` can name: 250 in each of 250 third bytes.
    static let maxAddresses = 250 * 250

    /// The loopback source address number `index` (from 0): 127.0.1.1 to 127.0.1.250, then 127.0.2.1, and so on.
    static func sourceAddress(_ index: Int) -> String {
        "127.0.\(1 + index / 250).\(1 + index % 250)"
    }

    /// Raises the soft limit on open files to the hard one, and both to `needed` when they are lower (which takes
    /// root, as `scripts/bench` runs part 7 with 100,000 streams).
    static func raiseOpenFileLimit(to needed: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        limit.rlim_cur = max(limit.rlim_max, rlim_t(needed))
        limit.rlim_max = limit.rlim_cur
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) != 0 {
            _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            limit.rlim_cur = limit.rlim_max
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
    }
}
