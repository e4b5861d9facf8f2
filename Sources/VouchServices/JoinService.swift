import Foundation
import VouchCrypto
import VouchDomain
import VouchStore

/// Joining through an invitation, page by page (docs/invitations.md, "Joining"): she reads the consent text and
/// agrees, then answers one question per page; her answers wait in a draft on the server, an hour at most, and become
/// a tester only when she joins. Declining, or leaving half-way, leaves nothing about her once the draft runs out.
public struct JoinService: Sendable {
    /// A draft found again by the cookie her browser holds, with what it belongs to.
    public struct Visit: Sendable {
        public var draft: JoinDraft
        public var answers: JoinAnswers
        public var invitation: Invitation
        public var steps: [JoinStep] { JoinStep.steps(for: invitation) }
    }

    /// She joined: the tester, what she was enrolled in, and her personal link's address, shown to her once.
    public struct Joined: Sendable {
        public var acceptance: InvitationAcceptance
        public var link: TesterLink
        public var linkURL: String
    }

    /// How long her answers wait: with the sweep every ten minutes, nothing of hers stays an hour.
    public static let draftLifetimeSeconds = 50 * 60
    public static let maxEmailLength = 254
    /// Rows of assistive technology a page offers: most people name one or two.
    public static let technologyRows = 3

    let store: any InvitationStore & JoinDraftStore & ConsentTextStore
    let invitations: InvitationService
    public let consentTexts: ConsentTextLibrary
    public let programmeOperator: ProgrammeOperator
    let linkValidSeconds: Int
    let clock: @Sendable () -> Date

    public init(store: any InvitationStore & JoinDraftStore & ConsentTextStore, invitations: InvitationService, consentTexts: ConsentTextLibrary,
                programmeOperator: ProgrammeOperator, linkValidSeconds: Int, clock: @escaping @Sendable () -> Date) {
        self.store = store
        self.invitations = invitations
        self.consentTexts = consentTexts
        self.programmeOperator = programmeOperator
        self.linkValidSeconds = linkValidSeconds
        self.clock = clock
    }

    /// The invitation the address's secret opens now, or nil.
    public func invitation(secret: String) throws -> Invitation? {
        guard secret.utf8.count <= 128 else { return nil }
        return try invitations.opening(secret: secret)
    }

    /// Whether the secret names an invitation at all, open or not.
    public func isKnown(secret: String) throws -> Bool {
        secret.utf8.count <= 128 ? try store.invitation(secretSHA256: Digest.sha256(secret)) != nil : false
    }

    /// The consent text she is shown now, in a language.
    public func consentText(language: String) -> ConsentText {
        consentTexts.current(language: language, for: programmeOperator)
    }

    /// She agreed to the current consent text, read in `language`: a draft is made, and the secret of the cookie that
    /// finds it is returned. Nothing else is kept, and nothing names her yet.
    public func agree(secret: String, language: String) throws -> (cookie: String, draft: JoinDraft) {
        guard let invitation = try invitation(secret: secret) else { throw InvitationClosed() }
        guard consentTexts.languages.contains(language) else {
            throw ValidationFailure([FieldError(field: "language", message: "allowed: \(consentTexts.languages.joined(separator: ", "))")])
        }
        let cookie = SecureRandom.alphanumeric(count: 43)
        let now = clock()
        let end = min(now.addingTimeInterval(Double(JoinService.draftLifetimeSeconds)), invitation.expiresAt)
        let draft = JoinDraft(idSHA256: Digest.sha256(cookie), invitationID: invitation.id, csrf: SecureRandom.alphanumeric(count: 32),
                              consentVersion: consentTexts.currentVersion, consentLanguage: language,
                              answers: JoinAnswers(language: language).json, createdAt: now, expiresAt: end)
        try store.createJoinDraft(draft)
        return (cookie, draft)
    }

    /// Her draft, while it lasts and its invitation still opens; nil otherwise.
    public func visit(cookie: String) throws -> Visit? {
        guard !cookie.isEmpty, cookie.utf8.count <= 128, let draft = try store.joinDraft(idSHA256: Digest.sha256(cookie), at: clock()),
              let invitation = try store.invitation(id: draft.invitationID), invitation.opens(at: clock()) else { return nil }
        return Visit(draft: draft, answers: JoinAnswers(json: draft.answers), invitation: invitation)
    }

    /// Keeps her answers after a page she sent, even with problems, so nothing she typed is lost.
    public func save(_ answers: JoinAnswers, in visit: Visit) throws {
        try store.saveJoinDraft(idSHA256: visit.draft.idSHA256, answers: answers.json)
    }

    /// She declines or stops: her answers are deleted now.
    public func cancel(cookie: String) throws {
        guard !cookie.isEmpty, cookie.utf8.count <= 128 else { return }
        try store.deleteJoinDraft(idSHA256: Digest.sha256(cookie))
    }

    /// Deletes the drafts that ran out; the console's sweeper calls it.
    public func sweep() throws -> Int {
        try store.deleteExpiredJoinDrafts(at: clock())
    }

    /// The first step whose answer is missing or wrong, or nil when she may join.
    public func firstUnanswered(in visit: Visit) -> JoinStep? {
        visit.steps.first { step in step != .check && (!JoinService.isAnswered(step, visit.answers) || !issues(step, visit.answers).isEmpty) }
    }

    /// Whether she has sent the step's page at all (an empty email is an answer: she chose none).
    private static func isAnswered(_ step: JoinStep, _ answers: JoinAnswers) -> Bool {
        switch step {
        case .name: answers.name != nil
        case .email: answers.email != nil
        case .technologies: answers.technologies != nil
        case .testerCode: answers.testerCode != nil
        case .language: answers.language != nil
        case .check: true
        }
    }

    /// What is wrong with the answers of one step.
    public func issues(_ step: JoinStep, _ answers: JoinAnswers) -> [JoinIssue] {
        switch step {
        case .name:
            return JoinService.textIssues(answers.name ?? "", field: "name", limit: TesterValidator.maxNameLength, required: true)
        case .email:
            let email = (answers.email ?? "").trimmingCharacters(in: .whitespaces)
            if email.isEmpty { return [] }
            if email.utf8.count > JoinService.maxEmailLength { return [JoinIssue("email", .tooLong(limit: JoinService.maxEmailLength))] }
            return JoinService.isEmailAddress(email) ? [] : [JoinIssue("email", .notAnEmail)]
        case .technologies:
            let rows = answers.technologies ?? []
            guard rows.contains(where: { !$0.isEmpty }) else { return [JoinIssue("assistive_tech[0].name", .missing)] }
            var issues: [JoinIssue] = []
            for (index, row) in rows.enumerated() where !row.isEmpty {
                let field = "assistive_tech[\(index)]"
                if row.name.isEmpty { issues.append(JoinIssue(field + ".name", .missing)) }
                else if AssistiveTechnology(rawValue: row.name) == nil { issues.append(JoinIssue(field + ".name", .unknownChoice)) }
                if row.platform.isEmpty { issues.append(JoinIssue(field + ".platform", .missing)) }
                else if Platform(rawValue: row.platform) == nil { issues.append(JoinIssue(field + ".platform", .unknownChoice)) }
                issues += JoinService.textIssues(row.version, field: field + ".version", limit: AssistiveTechProfile.maxVersionLength, required: false)
                if !row.browser.isEmpty {
                    if Browser(rawValue: row.browser) == nil { issues.append(JoinIssue(field + ".browser", .unknownChoice)) }
                    else if row.platform != Platform.web.rawValue { issues.append(JoinIssue(field + ".browser", .browserOffTheWeb)) }
                }
            }
            return issues
        case .testerCode:
            return JoinService.textIssues(answers.testerCode ?? "", field: "tester_code", limit: TesterValidator.maxKeyLength, required: true)
        case .language:
            return consentTexts.languages.contains(answers.language ?? "") ? [] : [JoinIssue("language", .unknownChoice)]
        case .check:
            return []
        }
    }

    /// She joins: every answer is checked again, then the tester is made with her own consent, the consent text she
    /// read is kept, she is enrolled, and she gets a personal link, in one transaction; her draft is deleted.
    /// - Parameter base: the address the console is reached at, for her link.
    public func join(_ visit: Visit, base: String) throws -> Joined {
        if let step = firstUnanswered(in: visit) {
            throw ValidationFailure([FieldError(field: step.rawValue, message: "is not answered yet")])
        }
        let answers = visit.answers
        let language = answers.language ?? visit.draft.consentLanguage
        let profiles = (answers.technologies ?? []).filter { !$0.isEmpty }.map { row in
            AssistiveTechProfile(technology: AssistiveTechnology(rawValue: row.name)!, platform: Platform(rawValue: row.platform)!,
                                 version: row.version.isEmpty ? nil : row.version, browser: Browser(rawValue: row.browser))
        }
        let email = (answers.email ?? "").trimmingCharacters(in: .whitespaces)
        guard let shown = consentTexts.text(version: visit.draft.consentVersion, language: visit.draft.consentLanguage, for: programmeOperator) else {
            throw StoreConflict("the consent text \(visit.draft.consentVersion) she agreed to is no longer configured; she must open the invitation again")
        }
        let now = clock()
        let agreed = AgreedConsentText(text: shown, sha256: Digest.sha256(shown.body), firstAgreedAt: now)
        let linkSecret = SecureRandom.alphanumeric(count: 43)
        let linkEnd = now.addingTimeInterval(Double(linkValidSeconds))
        let acceptance: InvitationAcceptance
        do {
            acceptance = try invitations.accept(
                secretSHA256: visit.invitation.secretSHA256,
                InvitationService.Answers(name: answers.name, email: email.isEmpty ? nil : email, assistiveTech: profiles,
                                          targetingKeys: answers.testerCode.map { [$0.trimmingCharacters(in: .whitespaces)] }, language: language,
                                          consentVersion: visit.draft.consentVersion),
                consentText: agreed
            ) { tester in
                TesterLink(id: "l_" + SecureRandom.alphanumeric(count: 16), testerID: tester.id, secretSHA256: Digest.sha256(linkSecret),
                           createdBy: tester.id, createdAt: now, expiresAt: linkEnd)
            }
        } catch let closed as InvitationClosed {
            try store.deleteJoinDraft(idSHA256: visit.draft.idSHA256)
            throw closed
        }
        try store.deleteJoinDraft(idSHA256: visit.draft.idSHA256)
        guard let link = acceptance.link else { throw StoreDataError("joining made no personal link") }
        return Joined(acceptance: acceptance, link: link, linkURL: base + "/console/link/" + linkSecret)
    }

    static func textIssues(_ value: String, field: String, limit: Int, required: Bool) -> [JoinIssue] {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return required ? [JoinIssue(field, .missing)] : [] }
        if value.contains(where: { $0.isNewline }) || value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return [JoinIssue(field, .lineBreaks)]
        }
        return SchemaText.length(trimmed) > limit ? [JoinIssue(field, .tooLong(limit: limit))] : []
    }

    /// Plain ASCII `local@domain` with a dot in the domain and no spaces: what a relay accepts without SMTPUTF8.
    static func isEmailAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].utf8.count <= 64, parts[1].contains("."), !parts[1].hasPrefix("."),
              !parts[1].hasSuffix("."), !parts[1].contains("..") else { return false }
        return text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && !"()<>,;:\\\"[]".utf8.contains($0) || $0 == UInt8(ascii: "@") }
    }
}

extension JoinService {
    /// A consent text as staff look it up: the words, whether testers agreed to it and since when, and whether it is
    /// the one shown now.
    public struct ConsentTextRecord: Sendable {
        public var text: ConsentText
        public var agreed: AgreedConsentText?
        public var isCurrent: Bool
    }

    /// A version's text in a language: as testers agreed to it when they did, else as it would be shown now.
    public func consentText(version: String, language: String, for principal: Principal) throws -> ConsentTextRecord {
        try AccessDenied.unless(principal, may: .readAll)
        let isCurrent = version == consentTexts.currentVersion
        if let agreed = try store.agreedConsentText(version: version, language: language) {
            return ConsentTextRecord(text: agreed.text, agreed: agreed, isCurrent: isCurrent)
        }
        guard let text = consentTexts.text(version: version, language: language, for: programmeOperator) else {
            throw StoreError.notFound(kind: "consent text", id: "\(version) in \(language)")
        }
        return ConsentTextRecord(text: text, agreed: nil, isCurrent: isCurrent)
    }

    /// Every text testers agreed to, and the current version's in each language, by version and language.
    public func consentTexts(for principal: Principal) throws -> [ConsentTextRecord] {
        try AccessDenied.unless(principal, may: .readAll)
        var records = try store.agreedConsentTexts().map { ConsentTextRecord(text: $0.text, agreed: $0, isCurrent: $0.text.version == consentTexts.currentVersion) }
        for language in consentTexts.languages where !records.contains(where: { $0.text.version == consentTexts.currentVersion && $0.text.language == language }) {
            records.append(ConsentTextRecord(text: consentText(language: language), agreed: nil, isCurrent: true))
        }
        return records.sorted { ($0.text.version, $0.text.language) < ($1.text.version, $1.text.language) }
    }
}
