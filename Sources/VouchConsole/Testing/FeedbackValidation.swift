import Foundation
import VouchConsoleKit
import VouchDomain

/// Checks the answers of one feedback page as she presses Continue: what is missing in GOV.UK's words, then the
/// domain's own rules (lengths, control characters, a failed verdict's severity) as the API will apply them on send.
enum FeedbackValidation {
    /// The problems with `step`'s answers, in the order its fields appear.
    static func issues(on step: FeedbackStep, fix: Fix, answers: FeedbackAnswers, testerID: String, messages: Messages) -> [FieldIssue] {
        var issues: [FieldIssue] = step.required(for: fix).compactMap { field, message in
            answers[field] == nil ? FieldIssue(field: field, message: messages[message]) : nil
        }
        // Choices the domain's types do not limit: a platform the fix ships on, and yes or no.
        if step == .device, let answer = answers["platform"], !fix.platforms.map(\.rawValue).contains(answer) {
            issues.append(FieldIssue(field: "platform", message: messages[.requiredPlatform]))
        }
        if step == .regression, let answer = answers["regression"], !FeedbackStep.regressionChoices.contains(answer) {
            issues.append(FieldIssue(field: "regression", message: messages[.requiredRegression]))
        }
        if step == .severity, let message = clash(outcome: answers["task_outcome"], severity: answers["severity"], messages: messages) {
            issues.append(FieldIssue(field: "severity", message: message))
        }
        let flagged = Set(issues.map(\.field))
        do {
            _ = try FeedbackValidator.makeFeedback(from: answers.draft(for: fix, testerID: testerID), id: "check", fix: fix, channel: .web,
                                                   recordedBy: testerID, at: Date())
        } catch {
            // Another page's missing answers are that page's business.
            issues += error.errors.filter { step.fields.contains($0.field) && !flagged.contains($0.field) }
                .map { issue(from: FieldIssue(field: $0.field, message: $0.message), answers: answers, messages: messages) }
        }
        return issues.sorted { (step.fields.firstIndex(of: $0.field) ?? 0) < (step.fields.firstIndex(of: $1.field) ?? 0) }
    }

    /// A severity that contradicts the task's outcome, as the criteria would read it: a task she could not finish is a
    /// problem that stops her, so it blocks promotion (Serious or Critical); a task she did finish was not stopped
    /// altogether, so it is not Critical. Other pairs are hers to judge (docs/console.md, "Task outcome and severity").
    static func clash(outcome: String?, severity: String?, messages: Messages) -> String? {
        guard let outcome = outcome.flatMap(TaskOutcome.init(rawValue:)), let severity = severity.flatMap(Severity.init(rawValue:)) else { return nil }
        if outcome == .notCompleted && !severity.isBlocking {
            return messages[.clashNotCompleted]
        }
        if outcome != .notCompleted && severity == .critical {
            return messages[.clashCritical]
        }
        return nil
    }

    /// The first page, in order, whose answers are missing or wrong, with its problems; nil when all can be sent.
    static func firstIncomplete(fix: Fix, answers: FeedbackAnswers, testerID: String, messages: Messages) -> (step: FeedbackStep, issues: [FieldIssue])? {
        for step in FeedbackStep.sequence(for: fix, answers: answers) {
            let issues = issues(on: step, fix: fix, answers: answers, testerID: testerID, messages: messages)
            if !issues.isEmpty { return (step, issues) }
        }
        return nil
    }

    /// An API field problem as a sentence beside the field: "Operating system version must be at most 64 characters".
    /// The API's words are English; in another language the problem is said from what she answered: a failed verdict's
    /// severity as the clash it is, anything else (a length, a character that cannot be kept) as a field to check.
    static func issue(from apiIssue: FieldIssue, answers: FeedbackAnswers, messages: Messages) -> FieldIssue {
        guard messages.language != .en else { return issue(from: apiIssue) }
        if apiIssue.field == "severity", answers["verdict"] == Verdict.failed.rawValue {
            return FieldIssue(field: apiIssue.field, message: messages[.clashFailed])
        }
        return FieldIssue(field: apiIssue.field, message: messages(.fieldCheck, ["subject": FeedbackWording.subject(apiIssue.field, messages)]))
    }

    static func issue(from apiIssue: FieldIssue) -> FieldIssue {
        let message = apiIssue.message
        let subject = FeedbackWording.subject(apiIssue.field)
        let sentence = if message.hasPrefix("is ") || message.hasPrefix("must ") {
            subject + " " + message
        } else if message.hasPrefix("'") {
            subject + ": " + message
        } else {
            message.prefix(1).uppercased() + message.dropFirst()
        }
        return FieldIssue(field: apiIssue.field, message: sentence)
    }
}
