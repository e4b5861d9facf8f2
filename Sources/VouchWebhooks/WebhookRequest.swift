import Foundation
import VouchDomain
import VouchJSON
import VouchStore

/// What one attempt sends, shaped by the endpoint's format from the stored Standard Webhooks body
/// (docs/contracts.md, "Formats"). The outbox, retries and the address policy are the same for every format.
public struct WebhookRequest: Sendable {
    public var headers: [(String, String)]
    public var body: [UInt8]

    /// What the formats need beyond the job: where token files are, and where console links point.
    public struct Shaping: Sendable {
        /// `webhooks.token_directory`: where `github-dispatch` endpoints' token files are; empty when unset.
        public var tokenDirectory: String
        /// `console.public_url`, which Slack messages link through; empty sends no link.
        public var consoleURL: String

        public init(tokenDirectory: String = "", consoleURL: String = "") {
            self.tokenDirectory = tokenDirectory
            var url = consoleURL
            while url.hasSuffix("/") { url.removeLast() }
            self.consoleURL = url
        }
    }

    /// Why an attempt could not be shaped: `retry` when it may work later (a token file put right), else the
    /// delivery is refused at once.
    public struct Unshaped: Error, Sendable {
        public var reason: String
        public var retry: Bool
    }

    /// The GitHub REST API version the dispatch is written for.
    public static let gitHubAPIVersion = "2022-11-28"
    static let userAgent = ("User-Agent", "vouchd-webhooks/1")

    public static func make(_ job: DeliveryJob, eventID: String, timestamp: Int, shaping: Shaping) throws(Unshaped) -> WebhookRequest {
        switch job.format {
        case .standard:
            guard let signature = WebhookSigner.signature(secret: job.secret, id: eventID, timestamp: timestamp, body: job.body) else {
                throw Unshaped(reason: "the endpoint's secret is not a whsec_ secret", retry: false)
            }
            return WebhookRequest(headers: [("Content-Type", "application/json"), userAgent, ("webhook-id", eventID),
                                            ("webhook-timestamp", String(timestamp)), ("webhook-signature", signature)], body: job.body)
        case .githubDispatch:
            let token: String
            switch WebhookTokenFile.read(job.tokenFile ?? "", in: shaping.tokenDirectory) {
            case .success(let read): token = read
            case .failure(let unreadable): throw Unshaped(reason: unreadable.description, retry: true)
            }
            return WebhookRequest(headers: [("Content-Type", "application/json"), userAgent, ("Accept", "application/vnd.github+json"),
                                            ("X-GitHub-Api-Version", gitHubAPIVersion), ("Authorization", "Bearer " + token)],
                                  body: dispatchBody(job.body, type: job.delivery.eventType, eventID: eventID))
        case .slack:
            let event = (try? JSONParser.parse(job.body)) ?? .object([:])
            let text = SlackMessage.text(for: event, type: job.delivery.eventType, consoleURL: shaping.consoleURL)
            return WebhookRequest(headers: [("Content-Type", "application/json"), userAgent], body: JSONWriter.bytes(.object(["text": .string(text)])))
        }
    }

    /// `{"event_type":"vouch.<type>","client_payload":{"id":"msg_…",<the stored body's members>}}`: the stored bytes
    /// are spliced in unchanged, so the payload holds exactly what a Standard Webhooks receiver would get, with the
    /// event's id (GitHub sends no id header of ours) for dropping duplicates.
    static func dispatchBody(_ stored: [UInt8], type: WebhookEventType, eventID: String) -> [UInt8] {
        var bytes = Array(#"{"event_type":"#.utf8)
        JSONWriter.writeString("vouch." + type.rawValue, into: &bytes)
        bytes += Array(#","client_payload":{"id":"#.utf8)
        JSONWriter.writeString(eventID, into: &bytes)
        // The stored body is a JSON object written by JSONWriter: `{` then its members.
        let members = stored.dropFirst().drop { $0 == 0x20 || $0 == 0x0A }
        if members.first != UInt8(ascii: "}") { bytes.append(UInt8(ascii: ",")) }
        bytes += members
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}
