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
        /// The format's name, as entered (`standard`, `github-dispatch`, `slack`).
        public var format: String?
        /// A `github-dispatch` endpoint's token file, by name in `webhooks.token_directory`; `.some(nil)` removes it.
        public var tokenFile: String??

        public init(url: String? = nil, events: [String]? = nil, required: Bool? = nil, enabled: Bool? = nil, format: String? = nil,
                    tokenFile: String?? = nil) {
            self.url = url
            self.events = events
            self.required = required
            self.enabled = enabled
            self.format = format
            self.tokenFile = tokenFile
        }
    }

    /// What the formats other than Standard Webhooks depend on outside the store (docs/contracts.md, "Formats").
    public struct Receivers: Sendable {
        /// Why a token file cannot be used now, read from `webhooks.token_directory` (never saying what it holds); nil
        /// when it can.
        public var checkTokenFile: @Sendable (_ name: String) -> String?
        /// Whether `console.public_url` is set: a Slack message links to the fix's console page through it.
        public var consoleLinks: Bool

        public init(checkTokenFile: @escaping @Sendable (_ name: String) -> String? = { _ in "webhooks.token_directory is not set" },
                    consoleLinks: Bool = false) {
            self.checkTokenFile = checkTokenFile
            self.consoleLinks = consoleLinks
        }
    }

    /// Checks a receiver's URL, its form and where its host resolves: nil when it may be used, otherwise what is wrong
    /// with it. Throws `TryAgainSoon` when it cannot be checked now.
    public typealias AddressCheck = @Sendable (_ url: String) throws -> String?

    let store: any WebhookStore & DeliveryStore
    let checkAddress: AddressCheck
    let makeSecret: @Sendable () -> String
    let receivers: Receivers
    let clock: @Sendable () -> Date

    /// - Parameter makeSecret: a new signing secret, in the form the deliveries sign with.
    public init(store: any WebhookStore & DeliveryStore, checkAddress: @escaping AddressCheck, makeSecret: @escaping @Sendable () -> String,
                receivers: Receivers = Receivers(), clock: @escaping @Sendable () -> Date) {
        self.store = store
        self.receivers = receivers
        self.checkAddress = checkAddress
        self.makeSecret = makeSecret
        self.clock = clock
    }

    /// The fields' problems, after `readErrors`, thrown unless `collect`; the event names become types, the format's
    /// name a format.
    private func check(_ fields: Fields, creating: Bool, readErrors: [FieldError],
                       collect: Bool = false) throws -> (events: [WebhookEventType]?, format: WebhookFormat?, errors: [FieldError]) {
        var errors = readErrors
        var format: WebhookFormat?
        if let name = fields.format {
            format = WebhookFormat(rawValue: name)
            if format == nil { errors.append(FieldError(field: "format", message: "'\(name)' is not a format; allowed: \(WebhookFormat.allowedList)")) }
        }
        if case .some(.some(let name)) = fields.tokenFile, let problem = WebhookFormat.tokenFileNameProblem(name) {
            errors.append(FieldError(field: "token_file", message: problem))
        }
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
        if !errors.isEmpty && !collect { throw ValidationFailure(errors) }
        return (events, format, errors)
    }

    /// The endpoint as it would be with `fields` applied: what the format asks of the other fields, each problem
    /// naming the field this request set (docs/contracts.md, "Formats").
    private func formatErrors(of endpoint: WebhookEndpoint, given fields: Fields) -> [FieldError] {
        var errors: [FieldError] = []
        let format = endpoint.format
        if endpoint.required && !format.mayBeRequired {
            let why = format == .githubDispatch
                ? "GitHub's 204 says only that the dispatch was queued, not that a workflow ran or succeeded"
                : "Slack's 200 says only that the message was posted"
            errors.append(FieldError(field: fields.required == true ? "required" : "format",
                                     message: "a \(format.rawValue) webhook cannot be required for promotion: \(why); only a standard webhook, "
                                        + "whose receiver answers for itself, can hold a promotion"))
        }
        if !endpoint.url.isEmpty, let problem = format.urlProblem(endpoint.url) {
            errors.append(FieldError(field: fields.url != nil ? "url" : "format", message: problem))
        }
        switch (format, endpoint.tokenFile) {
        case (.githubDispatch, nil):
            errors.append(FieldError(field: "token_file", message: "is required for a github-dispatch webhook: the name of the file in "
                + "webhooks.token_directory whose first line is the GitHub token sent as Authorization: Bearer"))
        case (.githubDispatch, let name?):
            if let problem = receivers.checkTokenFile(name) { errors.append(FieldError(field: "token_file", message: problem)) }
        case (_, .some):
            errors.append(FieldError(field: "token_file", message: "only a github-dispatch webhook reads a token file; leave token_file out"))
        default:
            break
        }
        if format == .slack && !receivers.consoleLinks {
            errors.append(FieldError(field: "format", message: "a slack message links to the fix's console page: set console.public_url first"))
        }
        return errors
    }

    /// Registers a receiver; the endpoint returned carries its signing secret, which is never shown again.
    public func create(_ fields: Fields, readErrors: [FieldError] = [], by principal: Principal) throws -> WebhookEndpoint {
        try AccessDenied.unless(principal, may: .manageWebhooks)
        let checked = try check(fields, creating: true, readErrors: readErrors, collect: true)
        let time = clock()
        let endpoint = WebhookEndpoint(id: "we_" + SecureRandom.alphanumeric(count: 16), url: fields.url ?? "", events: checked.events ?? [],
                                       required: fields.required ?? false, secret: makeSecret(), enabled: fields.enabled ?? true,
                                       createdBy: principal.name, createdAt: time, updatedAt: time, format: checked.format ?? .standard,
                                       tokenFile: fields.tokenFile ?? nil)
        // Every problem at once; the format's rules only when the format itself was understood.
        let formatErrors = fields.format != nil && checked.format == nil ? [] : formatErrors(of: endpoint, given: fields)
        let errors = checked.errors + formatErrors.filter { problem in !checked.errors.contains { $0.field == problem.field } }
        if !errors.isEmpty { throw ValidationFailure(errors) }
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
        let checked = try check(fields, creating: false, readErrors: readErrors)
        let time = clock()
        return try store.updateEndpoint(id, by: Requester(principal)) { endpoint in
            var next = endpoint
            if let url = fields.url { next.url = url }
            if let events = checked.events { next.events = events }
            if let required = fields.required { next.required = required }
            if let format = checked.format {
                next.format = format
                // A token file means nothing to another format: it goes with the format unless this request sets one.
                if format != .githubDispatch, fields.tokenFile == nil { next.tokenFile = nil }
            }
            if let tokenFile = fields.tokenFile { next.tokenFile = tokenFile }
            if next.format != endpoint.format || next.required != endpoint.required || next.url != endpoint.url || next.tokenFile != endpoint.tokenFile {
                let errors = formatErrors(of: next, given: fields)
                if !errors.isEmpty { throw ValidationFailure(errors) }
            }
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
