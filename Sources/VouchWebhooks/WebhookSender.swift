import Foundation
import VouchClient
import VouchDomain
import VouchStore

/// Sends one delivery attempt over libcurl, in its endpoint's format (signed for Standard Webhooks), without following
/// redirects.
///
/// One sender per worker thread: its client keeps connections to receivers alive between deliveries.
/// A receiver's answer is untrusted: only the status and `Retry-After` matter, and at most
/// `maxResponseBodyBytes` of the body is read.
///
/// The whole attempt, DNS included, ends within `timeoutMilliseconds`: the host name is looked up on the shared
/// resolver's threads within `lookupDeadline`, and curl gets what is left (docs/decisions.md, "Deliveries look
/// host names up within a deadline, and DNS failures are retried").
public final class WebhookSender {
    /// The most of a receiver's body read before the transfer is cut; the status alone decides the attempt.
    public static let maxResponseBodyBytes = 64 * 1024

    private let client: HTTPClient
    private let policy: AddressPolicy
    private let timeoutMilliseconds: Int
    private let shaping: WebhookRequest.Shaping
    /// The longest an attempt waits for its host name to resolve.
    public let lookupDeadline: Duration

    /// - Parameters:
    ///   - timeoutMilliseconds: the attempt's whole budget (`webhooks.timeout`).
    ///   - resolver: the process's one resolver, shared with the routes that register webhooks.
    ///   - shaping: what formats other than Standard Webhooks need (token files, console links).
    public init(timeoutMilliseconds: Int, allowPrivateNetworks: Bool, resolver: HostResolver, shaping: WebhookRequest.Shaping = WebhookRequest.Shaping()) {
        self.shaping = shaping
        client = HTTPClient()
        // A proxy would connect elsewhere than the address the policy checked and pinned.
        client.usesEnvironmentProxy = false
        client.maxResponseBodyBytes = WebhookSender.maxResponseBodyBytes
        client.acceptsIncompleteBody = true
        self.timeoutMilliseconds = timeoutMilliseconds
        lookupDeadline = WebhookSender.lookupDeadline(timeoutMilliseconds: timeoutMilliseconds)
        policy = AddressPolicy(allowPrivateNetworks: allowPrivateNetworks, resolver: resolver, timeout: lookupDeadline)
    }

    /// A third of the attempt's budget (5 s of the default 15 s): a working DNS server usually answers within a
    /// second, and the other two thirds stay for connecting, TLS and the receiver's answer, so a slow answer from DNS
    /// does not leave the receiver too little time.
    static func lookupDeadline(timeoutMilliseconds: Int) -> Duration {
        .milliseconds(max(1, timeoutMilliseconds / 3))
    }

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
            // DNS that did not answer, failed or knew no address may answer next time: a failed attempt, retried on
            // the schedule. An address the policy refuses stays refused: the delivery dies.
            guard let unresolved = error.unresolved else {
                return Outcome(result: .refused(error.description), statusCode: nil, error: error.description, durationMilliseconds: elapsed())
            }
            return Outcome(result: .failed(unresolved.description), statusCode: nil, error: unresolved.description, durationMilliseconds: elapsed())
        }
        let request: WebhookRequest
        do {
            request = try WebhookRequest.make(job, eventID: eventID, timestamp: Int(now.timeIntervalSince1970), shaping: shaping)
        } catch {
            // A token file that cannot be read now may be put right before the retries run out; a bad secret cannot.
            return Outcome(result: error.retry ? .failed(error.reason) : .refused(error.reason), statusCode: nil, error: error.reason,
                           durationMilliseconds: elapsed())
        }
        // What the lookup left of the budget; at least a millisecond, since curl reads 0 as "no timeout".
        client.timeoutMilliseconds = max(1, timeoutMilliseconds - elapsed())
        do {
            // CURLOPT_RESOLVE pins the address the policy checked for a name, so a second lookup cannot lead elsewhere
            // (an address literal needs no lookup); the connection's address is checked again before anything is sent.
            let answer = try client.send(method: "POST", url: job.url, headers: request.headers, body: request.body, pinnedAddress: target.pin,
                                         allowsPeer: policy.allowsPeer)
            let retryAfter = answer.headers["retry-after"].flatMap { WebhookSender.retryAfterSeconds($0, now: now) }
            var outcome = Outcome(result: .answered(status: answer.status, retryAfterSeconds: retryAfter), statusCode: answer.status,
                                  error: (200...299).contains(answer.status) ? nil : "HTTP \(answer.status)", durationMilliseconds: elapsed())
            outcome.bodyBytesRead = answer.bodyBytesReceived
            return outcome
        } catch {
            if error.isRefusedPeer {
                return Outcome(result: .refused(error.message), statusCode: nil, error: error.message, durationMilliseconds: elapsed())
            }
            if error.isTimeout {
                return Outcome(result: .timedOut, statusCode: nil, error: "timed out", durationMilliseconds: elapsed())
            }
            return Outcome(result: .failed(error.message), statusCode: nil, error: error.message, durationMilliseconds: elapsed())
        }
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
