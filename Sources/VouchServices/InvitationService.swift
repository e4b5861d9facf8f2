import Foundation
import VouchCodec
import VouchCrypto
import VouchDomain
import VouchStore

/// Invitations to join as a tester and consent herself (docs/invitations.md). An invitation's address carries its
/// secret and is given out once, when it is made; only the secret's SHA-256 is kept. Made, listed and revoked by
/// those who manage testers, once the operator who runs the programme is configured: nobody can consent without
/// knowing to whom.
public struct InvitationService: Sendable {
    /// What a maintainer asks for; nil means the default.
    public struct Draft: Sendable {
        public var nameHint: String?
        public var targetingKeys: [String]
        public var fixKeys: [String]
        public var panelIDs: [String]
        public var language: String?
        public var expiresIn: String?
        public var uses: Int?

        public init(nameHint: String? = nil, targetingKeys: [String] = [], fixKeys: [String] = [], panelIDs: [String] = [], language: String? = nil,
                    expiresIn: String? = nil, uses: Int? = nil) {
            self.nameHint = nameHint
            self.targetingKeys = targetingKeys
            self.fixKeys = fixKeys
            self.panelIDs = panelIDs
            self.language = language
            self.expiresIn = expiresIn
            self.uses = uses
        }
    }

    /// A new invitation with the address that opens it, shown this once.
    public struct Created: Sendable {
        public var invitation: Invitation
        public var url: String
    }

    /// The languages an invitation's pages can open in: the console's (`console.default_language` takes the same).
    public static let languages = ["en", "ja"]
    /// How long an invitation works: from an hour to 90 days; 14 days unless its maker says.
    public static let validRange = 3_600...(90 * 86_400)
    public static let defaultValidSeconds = 14 * 86_400
    /// How many people may join through one invitation: one unless its maker says (a link for a whole user group).
    public static let usesRange = 1...1_000
    public static let maxNameHintLength = 200
    /// The fixes one invitation can enroll her in, and the panels it can add her to.
    public static let maxFixes = 50
    public static let maxPanels = 50

    let store: any InvitationStore
    let programmeOperator: ProgrammeOperator
    let defaultLanguage: String
    let clock: @Sendable () -> Date
    let notifications: NotificationPlanner

    public init(store: any InvitationStore, programmeOperator: ProgrammeOperator, defaultLanguage: String = "en",
                notifications: NotificationPlanner = NotificationPlanner(enabled: false, defaultLanguage: "en"), clock: @escaping @Sendable () -> Date) {
        self.store = store
        self.notifications = notifications
        self.programmeOperator = programmeOperator
        self.defaultLanguage = defaultLanguage
        self.clock = clock
    }

    /// Makes an invitation.
    /// - Parameters:
    ///   - base: the address the console is reached at (`https://vouch.example.com`), nil when unknown.
    ///   - readErrors: what reading the request already found wrong, reported with the rest.
    public func create(_ draft: Draft, base: String?, readErrors: [FieldError] = [], by principal: Principal) throws -> Created {
        try AccessDenied.unless(principal, may: .manageTesters)
        var errors = readErrors
        var nameHint: String?
        if let hint = draft.nameHint {
            if let problem = SchemaText.problem(hint, limit: InvitationService.maxNameHintLength, required: false, lineBreaks: false) {
                errors.append(FieldError(field: "name_hint", message: problem))
            }
            let trimmed = hint.trimmingCharacters(in: .whitespacesAndNewlines)
            nameHint = trimmed.isEmpty ? nil : trimmed
        }
        errors += TesterValidator.targetingKeyErrors(draft.targetingKeys, field: "targeting_keys")
        if draft.fixKeys.count > InvitationService.maxFixes {
            errors.append(FieldError(field: "fixes", message: "at most \(InvitationService.maxFixes) fixes, got \(draft.fixKeys.count)"))
        }
        for (index, key) in draft.fixKeys.enumerated() where !FixKey.isValid(key) {
            errors.append(FieldError(field: "fixes[\(index)]", message: "must be a fix key: \(FixKey.rule)"))
        }
        if draft.panelIDs.count > InvitationService.maxPanels {
            errors.append(FieldError(field: "panels", message: "at most \(InvitationService.maxPanels) panels, got \(draft.panelIDs.count)"))
        }
        let language = draft.language ?? defaultLanguage
        if !InvitationService.languages.contains(language) {
            errors.append(FieldError(field: "language", message: "allowed: \(InvitationService.languages.joined(separator: ", "))"))
        }
        var seconds = InvitationService.defaultValidSeconds
        if let expiresIn = draft.expiresIn {
            do { seconds = try DurationText.seconds(expiresIn, field: "expires_in", allowed: InvitationService.validRange) } catch { errors.append(error) }
        }
        let uses = draft.uses ?? 1
        if !InvitationService.usesRange.contains(uses) {
            errors.append(FieldError(field: "uses", message: "must be a whole number from \(InvitationService.usesRange.lowerBound) to \(InvitationService.usesRange.upperBound)"))
        }
        if !errors.isEmpty { throw ValidationFailure(errors) }
        guard programmeOperator.isConfigured else {
            throw StoreConflict("invitations need to say who runs the programme: set operator.name and operator.contact in vouchd's configuration")
        }
        guard let base else {
            throw StoreConflict("the invitation's address is unknown: set console.public_url, or send the request with a plain Host header")
        }
        let secret = SecureRandom.alphanumeric(count: 43)
        let now = clock()
        let invitation = Invitation(id: "i_" + SecureRandom.alphanumeric(count: 16), secretSHA256: Digest.sha256(secret), nameHint: nameHint,
                                    targetingKeys: InvitationService.unique(draft.targetingKeys), fixKeys: InvitationService.unique(draft.fixKeys),
                                    panelIDs: InvitationService.unique(draft.panelIDs), language: language, usesAllowed: uses,
                                    createdBy: principal.name, createdAt: now, expiresAt: now.addingTimeInterval(Double(seconds)))
        try store.createInvitation(invitation, by: Requester(principal))
        return Created(invitation: invitation, url: base + "/console/join/" + secret)
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen: Set<String> = []
        return values.filter { seen.insert($0).inserted }
    }

    /// Every invitation, oldest first.
    public func invitations(for principal: Principal) throws -> [Invitation] {
        try AccessDenied.unless(principal, may: .manageTesters)
        return try store.invitations()
    }

    public func invitation(_ id: String, for principal: Principal) throws -> Invitation {
        try AccessDenied.unless(principal, may: .manageTesters)
        guard let invitation = try store.invitation(id: id) else { throw StoreError.notFound(kind: "invitation", id: id) }
        return invitation
    }

    /// Revokes the invitation: its address opens nothing from now on; who already joined through it stays.
    public func revoke(_ id: String, by principal: Principal) throws -> Invitation {
        try AccessDenied.unless(principal, may: .manageTesters)
        return try store.revokeInvitation(id, by: Requester(principal), at: clock())
    }

    /// What she answers on the invitation's pages after she has agreed.
    public struct Answers: Sendable {
        public var name: String?
        public var email: String?
        public var assistiveTech: [AssistiveTechProfile]?
        /// Her tester code, asked only when the invitation bound no targeting key.
        public var targetingKeys: [String]?
        /// The language she read the consent text in, and prefers.
        public var language: String
        /// The version of the consent text she agreed to.
        public var consentVersion: String

        public init(name: String?, email: String?, assistiveTech: [AssistiveTechProfile]?, targetingKeys: [String]?, language: String,
                    consentVersion: String) {
            self.name = name
            self.email = email
            self.assistiveTech = assistiveTech
            self.targetingKeys = targetingKeys
            self.language = language
            self.consentVersion = consentVersion
        }
    }

    /// She joins: the tester is made from her answers with the consent hers (`given_by: tester`), the use is counted
    /// and she is enrolled in the invitation's fixes and added to its panels, in one transaction. Nothing is stored when
    /// her answers are not valid (every bad field is named) or the invitation no longer opens (`InvitationClosed`).
    public func accept(secret: String, _ answers: Answers) throws -> InvitationAcceptance {
        try accept(secretSHA256: Digest.sha256(secret), answers, consentText: nil, makeLink: nil)
    }

    /// Accepts the invitation whose secret has this SHA-256, keeping the consent text she read and giving her the
    /// link `makeLink` makes, in the same transaction (the join pages, `JoinService`).
    public func accept(secretSHA256: [UInt8], _ answers: Answers, consentText: AgreedConsentText?,
                       makeLink: ((Tester) -> TesterLink)?) throws -> InvitationAcceptance {
        let now = clock()
        var languageErrors: [FieldError] = []
        if !InvitationService.languages.contains(answers.language) {
            languageErrors.append(FieldError(field: "language", message: "allowed: \(InvitationService.languages.joined(separator: ", "))"))
        }
        return try store.acceptInvitation(secretSHA256: secretSHA256, at: now, consentText: consentText, makeTester: { invitation in
            let id = TesterService.makeID()
            // Keys the invitation bound win: she was invited for that account, and is not asked for another.
            let keys = invitation.targetingKeys.isEmpty ? answers.targetingKeys : invitation.targetingKeys
            let draft = TesterDraft(name: answers.name, assistiveTech: answers.assistiveTech, targetingKeys: keys,
                                    consentVersion: answers.consentVersion, email: answers.email.map { $0 })
            var tester = try TesterValidator.makeTester(from: draft, id: id, recordedBy: id, at: now,
                                                        priorErrors: languageErrors + NotificationPlanner.emailErrors(answers.email))
            tester.consent.givenBy = .tester
            tester.consent.language = answers.language
            return tester
        }, makeLink: makeLink) { [notifications] tester, keys in
            // She is told what she was enrolled in at the address she just gave, in the language she chose.
            keys.flatMap { notifications.enrolled([tester], in: $0, revision: nil, at: now) }
        }
    }

    /// The invitation an address's secret opens now, or nil: unknown, expired, used up or revoked all look the same
    /// to whoever holds the address.
    public func opening(secret: String) throws -> Invitation? {
        guard let invitation = try store.invitation(secretSHA256: Digest.sha256(secret)), invitation.opens(at: clock()) else { return nil }
        return invitation
    }
}
