import VouchConsoleKit
import VouchHTTP
import VouchServerKit

/// A service's refusal as a console page shows it: the status, the words and the field problems the API answers
/// with for the same error, so a form can put each problem next to its field.
struct ServiceRefusal: Error {
    let problem: Problem

    var status: Int { problem.status }
    var detail: String { problem.detail }
    /// The field problems, by the API's field names.
    var issues: [FieldIssue] { problem.errors.map { FieldIssue(field: $0.field, message: $0.message) } }

    /// Runs `body`; a refusal the API would answer below 500 comes back as `.failure`, and anything else is thrown on
    /// for the application to log and answer.
    static func attempt<Value>(_ body: () throws -> Value) throws -> Result<Value, ServiceRefusal> {
        do {
            return .success(try body())
        } catch {
            guard let problem = ErrorResponses.problem(for: error), problem.status < 500 else { throw error }
            return .failure(ServiceRefusal(problem: problem))
        }
    }
}
