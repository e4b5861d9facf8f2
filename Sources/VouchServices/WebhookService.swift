import Foundation
import VouchCodec
import VouchCrypto
import VouchDomain
import VouchJSON
import VouchStore

/// Webhook receivers and their deliveries: registered, changed, tested, removed, and a dead delivery sent again.
public struct WebhookService: Sendable {
    /// What a person sets of a receiver; nil leaves a field as it is (or, on creation, at its default).
    public struct Fields: Sendable {
        public var url: String?
        /// Event type names, as entered: each is checked against the types a receiver can subscribe to.
        public var events: [String]?
        public var required: Bool?
        public var enabled: Bool?

        public init(url: String? = nil, events: [String]? = nil, required: Bool? = nil, enabled: Bool? = nil) {
            self.url = url
            self.events = events
            self.required = required
            self.enabled = enabled
        }
    }

    /// Checks a receiver's URL, its form and where its host resolves: nil when it may be used, otherwise what is wrong
    /// with it. Throws `TryAgainSoon` when it cannot be checked now.
    public typealias AddressCheck = @Sendable (_ url: String) throws -> String?

    let store: any WebhookStore & DeliveryStore
    let checkAddress: AddressCheck
    let makeSecret: @Sendable () -> String
    let clock: @Sendable () -> Date

    /// - Parameter makeSecret: a new signing secret, in the form the deliveries sign with.
    public init(store: any WebhookStore & DeliveryStore, checkAddress: @escaping AddressCheck, makeSecret: @escaping @Sendable () -> String,
                clock: @escaping @Sendable () -> Date) {
        self.store = store
        self.checkAddress = checkAddress
        self.makeSecret = makeSecret
        self.clock = clock
    }

    /// The fields' problems, after `readErrors`; the event names become types.
    private func check(_ fields: Fields, creating: Bool, readErrors: [FieldError]) throws -> [WebhookEventType]? {
        var errors = readErrors
        if creating && fields.url == nil { errors.append(FieldError(field: "url", message: "is required: the receiver's http:// or https:// URL")) }
        if let url = fields.url, let problem = try checkAddress(url) { errors.append(FieldError(field: "url", message: problem)) }
        var events: [WebhookEventType]?
        if let names = fields.events {
            var chosen: [WebhookEventType] = []
            for (index, name) in names.enumerated() {
                if let type = WebhookEventType(rawValue: name), WebhookEventType.subscribable.contains(type) {
                    chosen.append(type)
                } else {
                    errors.append(FieldError(field: "events[\(index)]", message: "'\(name)' is not an event; allowed: \(WebhookEvent.types.joined(separator: ", "))"))
                }
            }
            events = WebhookEventType.subscribable.filter(chosen.contains)
        }
        if !errors.isEmpty { throw ValidationFailure(errors) }
        return events
    }

    /// Registers a receiver; the endpoint returned carries its signing secret, which is never shown again.
    public func create(_ fields: Fields, readErrors: [FieldError] = [], by principal: Principal) throws -> WebhookEndpoint {
        try AccessDenied.unless(principal, may: .manageWebhooks)
        let events = try check(fields, creating: true, readErrors: readErrors)
        let time = clock()
        let endpoint = WebhookEndpoint(id: "we_" + SecureRandom.alphanumeric(count: 16), url: fields.url ?? "", events: events ?? [],
                                       required: fields.required ?? false, secret: makeSecret(), enabled: fields.enabled ?? true,
                                       createdBy: principal.name, createdAt: time, updatedAt: time)
        try store.createEndpoint(endpoint, by: Requester(principal))
        return endpoint
    }

    public func endpoints(after id: String?, limit: Int, for principal: Principal) throws -> [WebhookEndpoint] {
        try AccessDenied.unless(principal, may: .manageWebhooks)
        return try store.endpoints(after: id, limit: limit)
    }

    public func endpoint(_ id: String, for principal: Principal) throws -> WebhookEndpoint {
        try AccessDenied.unless(principal, may: .manageWebhooks)
        guard let endpoint = try store.endpoint(id) else { throw StoreError.notFound(kind: "webhook", id: id) }
        return endpoint
    }

    /// Changes what `fields` sets; enabling a receiver clears why it was disabled.
    public func update(_ id: String, with fields: Fields, readErrors: [FieldError] = [], by principal: Principal) throws -> WebhookEndpoint {
        try AccessDenied.unless(principal, may: .manageWebhooks)
        let events = try check(fields, creating: false, readErrors: readErrors)
        let time = clock()
        return try store.updateEndpoint(id, by: Requester(principal)) { endpoint in
            var next = endpoint
            if let url = fields.url { next.url = url }
            if let events { next.events = events }
            if let required = fields.required { next.required = required }
            if let enabled = fields.enabled {
                next.enabled = enabled
                if enabled { next.disabledReason = nil }
            }
            if next != endpoint { next.updatedAt = time }
            return next
        }
    }

    public func delete(_ id: String, by principal: Principal) throws {
        try AccessDenied.unless(principal, may: .manageWebhooks)
        try store.deleteEndpoint(id, by: Requester(principal), at: clock())
    }

    /// Sends a `webhook.test` event through the normal outbox, so it is signed and retried like any event.
    /// - Returns: the event's id and its deliveries' ids.
    public func sendTest(to id: String, by principal: Principal) throws -> (event: String, deliveries: [String]) {
        try AccessDenied.unless(principal, may: .manageWebhooks)
        guard let endpoint = try store.endpoint(id) else { throw StoreError.notFound(kind: "webhook", id: id) }
        guard endpoint.enabled else { throw StoreConflict("webhook \(id) is disabled (\(endpoint.disabledReason ?? "by hand")); enable it first") }
        let time = clock()
        let body: JSONValue = .object(["type": .string(WebhookEventType.webhookTest.rawValue), "timestamp": .string(Timestamp.string(time)),
                                       "data": .object(["webhook": .string(id), "requested_by": .string(principal.name)])])
        let event = WebhookEvent(id: WebhookEventFactory.makeID(), type: .webhookTest, fixKey: nil, revision: nil, body: JSONWriter.bytes(body), createdAt: time)
        return (event.id, try store.enqueue([event], onlyTo: id, by: Requester(principal)))
    }

    /// Deliveries in the order they were made, of one receiver or of all (`endpoint` nil).
    public func deliveries(endpoint: String?, status: WebhookDelivery.Status?, after id: String?, limit: Int,
                           for principal: Principal) throws -> [WebhookDelivery] {
        try AccessDenied.unless(principal, may: .manageWebhooks)
        return try store.deliveries(endpoint: endpoint, status: status, after: id, limit: limit)
    }

    /// Puts a dead delivery back in the queue with a fresh set of attempts.
    public func redeliver(_ id: String, by principal: Principal) throws -> WebhookDelivery {
        try AccessDenied.unless(principal, may: .manageWebhooks)
        return try store.redeliver(id, by: Requester(principal), at: clock())
    }
}
