import Foundation

/// One event for webhook receivers, with the exact body bytes that are signed and sent on every attempt.
public struct WebhookEvent: Sendable, Equatable {
    /// The names of the types an endpoint may subscribe to, for lists of allowed values.
    public static let types = WebhookEventType.subscribable.map(\.rawValue)

    /// `msg_` and random characters: the `webhook-id`, the same on every retry.
    public var id: String
    public var type: WebhookEventType
    public var fixKey: String?
    public var revision: Int?
    public var body: [UInt8]
    public var createdAt: Date

    public init(id: String, type: WebhookEventType, fixKey: String?, revision: Int?, body: [UInt8], createdAt: Date) {
        self.id = id
        self.type = type
        self.fixKey = fixKey
        self.revision = revision
        self.body = body
        self.createdAt = createdAt
    }
}

/// A webhook receiver.
public struct WebhookEndpoint: Sendable, Equatable {
    public var id: String
    public var url: String
    /// Event types it receives; empty means all.
    public var events: [WebhookEventType]
    /// Counts for promotion: a fix is released only when every required endpoint answered 2xx.
    public var required: Bool
    /// `whsec_` and base64 of 32 random bytes; shown once, at creation.
    public var secret: String
    public var enabled: Bool
    public var disabledReason: String?
    public var createdBy: String
    public var createdAt: Date
    public var updatedAt: Date
    /// What its requests look like; `standard` for every endpoint made before formats existed.
    public var format: WebhookFormat
    /// A `github-dispatch` endpoint's token file: its name in `webhooks.token_directory`, read at each attempt. The
    /// token itself is never stored.
    public var tokenFile: String?

    public init(id: String, url: String, events: [WebhookEventType], required: Bool, secret: String, enabled: Bool = true, disabledReason: String? = nil,
                createdBy: String, createdAt: Date, updatedAt: Date, format: WebhookFormat = .standard, tokenFile: String? = nil) {
        self.format = format
        self.tokenFile = tokenFile
        self.id = id
        self.url = url
        self.events = events
        self.required = required
        self.secret = secret
        self.enabled = enabled
        self.disabledReason = disabledReason
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public func receives(_ type: WebhookEventType) -> Bool { events.isEmpty || events.contains(type) }
}

/// One event sent to one endpoint, with its attempts so far.
public struct WebhookDelivery: Sendable, Equatable {
    public enum Status: String, Sendable, CaseIterable {
        case pending
        case succeeded
        case dead
        case cancelled
    }

    public var id: String
    public var eventID: String
    public var eventType: WebhookEventType
    public var endpointID: String
    public var status: Status
    public var required: Bool
    public var attempts: Int
    public var nextAttemptAt: Date?
    public var lastStatusCode: Int?
    public var lastError: String?
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: String, eventID: String, eventType: WebhookEventType, endpointID: String, status: Status, required: Bool, attempts: Int,
                nextAttemptAt: Date?, lastStatusCode: Int?, lastError: String?, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.eventID = eventID
        self.eventType = eventType
        self.endpointID = endpointID
        self.status = status
        self.required = required
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastStatusCode = lastStatusCode
        self.lastError = lastError
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
