import CCurl
import Foundation
import VouchDomain
import VouchStore

/// Sends one delivery attempt over libcurl, signed, without following redirects.
///
/// One sender per worker thread: its curl handle keeps connections to receivers alive between deliveries.
/// It owns its handle rather than using `HTTPClient`, because a receiver's answer is untrusted: only the status
/// and `Retry-After` matter, and at most `maxResponseBodyBytes` of the body is read.
public final class WebhookSender {
    /// The most of a receiver's body read before the transfer is cut; the status alone decides the attempt.
    public static let maxResponseBodyBytes = 64 * 1024

    private let handle: UnsafeMutableRawPointer
    private let timeoutMilliseconds: Int
    private let policy: AddressPolicy

    public init(timeoutMilliseconds: Int, policy: AddressPolicy) {
        WebhookSender.initializeOnce
        guard let handle = curl_easy_init() else { fatalError("curl_easy_init failed: out of memory") }
        self.handle = handle
        self.timeoutMilliseconds = timeoutMilliseconds
        self.policy = policy
    }

    deinit {
        curl_easy_cleanup(handle)
    }

    /// "This function must be called at least once within a program before the program calls any other function in libcurl";
    /// libcurl counts the calls, so this and `HTTPClient`'s each make one.
    private static let initializeOnce: Void = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    }()

    public struct Outcome: Sendable {
        public var result: DeliveryAttemptResult
        public var statusCode: Int?
        public var error: String?
        public var durationMilliseconds: Int
        /// How many bytes of the receiver's body were read (never more than `maxResponseBodyBytes`).
        public var bodyBytesRead: Int = 0
    }

    public func send(_ job: DeliveryJob, eventID: String, now: Date) -> Outcome {
        let started = ContinuousClock.now
        func elapsed() -> Int {
            let duration = ContinuousClock.now - started
            return Int(duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000)
        }
        let target: AddressPolicy.Target
        do {
            target = try policy.resolve(job.url)
        } catch {
            return Outcome(result: .refused(error.description), statusCode: nil, error: error.description, durationMilliseconds: elapsed())
        }
        let timestamp = Int(now.timeIntervalSince1970)
        guard let signature = WebhookSigner.signature(secret: job.secret, id: eventID, timestamp: timestamp, body: job.body) else {
            return Outcome(result: .refused("the endpoint's secret is not a whsec_ secret"), statusCode: nil, error: "bad secret", durationMilliseconds: elapsed())
        }
        let headers = [
            ("Content-Type", "application/json"), ("User-Agent", "vouchd-webhooks/1"),
            ("webhook-id", eventID), ("webhook-timestamp", String(timestamp)), ("webhook-signature", signature),
        ]
        let answer = post(url: job.url, headers: headers, body: job.body, pinnedAddress: target.pin)
        var outcome: Outcome
        if let status = answer.status {
            let retryAfter = answer.retryAfter.flatMap { WebhookSender.retryAfterSeconds($0, now: now) }
            outcome = Outcome(result: .answered(status: status, retryAfterSeconds: retryAfter), statusCode: status,
                              error: (200...299).contains(status) ? nil : "HTTP \(status)", durationMilliseconds: elapsed())
        } else if answer.timedOut {
            outcome = Outcome(result: .timedOut, statusCode: nil, error: "timed out", durationMilliseconds: elapsed())
        } else {
            outcome = Outcome(result: .failed(answer.failure ?? "no answer"), statusCode: nil, error: answer.failure, durationMilliseconds: elapsed())
        }
        outcome.bodyBytesRead = answer.bodyBytes
        return outcome
    }

    /// What came back from one POST: the status once the receiver's headers arrived, even if its body was cut
    /// (over the cap) or never finished (timeout).
    private struct Answer {
        var status: Int?
        var retryAfter: String?
        var bodyBytes = 0
        var timedOut = false
        var failure: String?
    }

    private func post(url: String, headers: [(String, String)], body: [UInt8], pinnedAddress: String) -> Answer {
        curl_easy_reset(handle)
        // CURLOPT_RESOLVE: "provide a custom address for a specific host and port pair": the address the policy checked.
        let resolveList = curl_slist_append(nil, pinnedAddress)
        defer { curl_slist_free_all(resolveList) }
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        for (name, value) in headers { headerList = curl_slist_append(headerList, "\(name): \(value)") }
        // Without this, curl adds "Expect: 100-continue" to larger bodies and waits for the receiver's go-ahead.
        headerList = curl_slist_append(headerList, "Expect:")
        vouch_curl_setopt_slist(handle, CURLOPT_RESOLVE, resolveList)
        vouch_curl_setopt_string(handle, CURLOPT_URL, url)
        vouch_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        // A proxy would connect elsewhere than the address the policy checked and pinned.
        vouch_curl_setopt_string(handle, CURLOPT_NOPROXY, "*")
        vouch_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        vouch_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, timeoutMilliseconds)
        vouch_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, min(timeoutMilliseconds, 10_000))
        // A redirect could lead to a private address the policy never saw (SSRF): a 3xx is an answer, and a failed attempt.
        vouch_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
        vouch_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, body.count)
        body.withUnsafeBytes { bytes in
            _ = vouch_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!))
        }
        vouch_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList)
        let reader = AnswerReader()
        let context = Unmanaged.passUnretained(reader).toOpaque()
        vouch_curl_setopt_write_function(handle, CURLOPT_WRITEFUNCTION, AnswerReader.bodyCallback)
        vouch_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context)
        vouch_curl_setopt_write_function(handle, CURLOPT_HEADERFUNCTION, AnswerReader.headerCallback)
        vouch_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context)
        let result = withExtendedLifetime(reader) { curl_easy_perform(handle) }
        var status = 0
        vouch_curl_info_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var answer = Answer(retryAfter: reader.retryAfter, bodyBytes: reader.bodyBytes)
        // A cut body (CURLE_WRITE_ERROR from the cap) or a body that never ends (timeout) still carries a status: it decides.
        if result == CURLE_OK || (reader.headersComplete && status >= 100) {
            answer.status = status
        } else {
            answer.timedOut = result == CURLE_OPERATION_TIMEDOUT
            answer.failure = String(cString: curl_easy_strerror(result))
        }
        return answer
    }

    /// `Retry-After` as seconds or as an HTTP date.
    static func retryAfterSeconds(_ text: String, now: Date) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) { return max(0, seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return max(0, Int(date.timeIntervalSince(now).rounded(.up)))
    }
}

/// Reads a receiver's answer from libcurl's callbacks: `Retry-After`, and the body's length only, up to the cap.
private final class AnswerReader {
    var retryAfter: String?
    var headersComplete = false
    var bodyBytes = 0

    static let bodyCallback: vouch_curl_write_callback = { _, size, count, context in
        guard let context else { return 0 }
        let reader = Unmanaged<AnswerReader>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        reader.bodyBytes += length
        // "Return the number of bytes actually taken care of. If that amount differs from the amount passed to your
        // callback function, it signals an error condition to the library": the transfer stops, the status stays.
        return reader.bodyBytes > WebhookSender.maxResponseBodyBytes ? 0 : length
    }

    static let headerCallback: vouch_curl_write_callback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let reader = Unmanaged<AnswerReader>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        let line = data.withMemoryRebound(to: UInt8.self, capacity: length) { String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self) }
        if line.hasPrefix("HTTP/") {
            // A new status line (after a 1xx): the headers so far belonged to an interim answer.
            reader.retryAfter = nil
            reader.headersComplete = false
        } else if line == "\r\n" || line == "\n" {
            reader.headersComplete = true
        } else if let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == "retry-after" {
            reader.retryAfter = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return length
    }
}
