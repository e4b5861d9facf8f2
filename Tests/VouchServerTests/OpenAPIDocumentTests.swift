import Foundation
import Testing
@testable import VouchAPI
import VouchDomain
import VouchHTTP
import VouchJSON
@testable import VouchServer
import VouchServices
import VouchStore
import VouchTestSupport

/// The OpenAPI document: the embedded copy matches `openapi/vouch.openapi.json`, and it describes exactly the routes served.
@Suite struct OpenAPIDocumentTests {
    /// `openapi/vouch.openapi.json`, found from this file's path (Tests/VouchServerTests/ → repository root).
    static let fileURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("openapi/vouch.openapi.json")

    static func document() throws -> JSONValue {
        try JSONParser.parse(OpenAPIDocument.json)
    }

    /// An application over a fresh database in its own temporary directory, removed after `body`.
    static func withApplication<T>(_ body: (VouchApplication) throws -> T) throws -> T {
        let temporary = try TemporaryDirectory("vouch-openapi-tests")
        let directory = temporary.path
        let store = try RelationalStore(path: directory + "/vouch.sqlite3")
        let application = try VouchApplication(store: store, logger: Logger(level: .error, sink: { _ in }))
        return try body(application)
    }

    static let httpMethods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// Every documented operation as `METHOD /path`, the form of `VouchApplication.routePatterns`.
    static func documentedOperations(_ document: JSONValue) throws -> [String] {
        let paths = try #require(document["paths"]?.objectValue)
        var operations: [String] = []
        for (path, item) in paths.members {
            let methods = try #require(item.objectValue, "\(path) is not an object").keys
            for method in methods where httpMethods.contains(method) {
                operations.append(method.uppercased() + " " + path)
            }
        }
        return operations
    }

    /// The schema or object a local `$ref` points to, or nil when it points nowhere.
    static func resolve(_ reference: String, in document: JSONValue) -> JSONValue? {
        guard reference.hasPrefix("#/") else { return nil }
        var node: JSONValue? = document
        for part in reference.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false) {
            let name = part.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            node = node?[name]
        }
        return node
    }

    static func references(in value: JSONValue, into found: inout [String]) {
        switch value {
        case .object(let object):
            for (key, member) in object.members {
                if key == "$ref", let text = member.stringValue { found.append(text) } else { references(in: member, into: &found) }
            }
        case .array(let elements):
            for element in elements { references(in: element, into: &found) }
        default:
            break
        }
    }

    /// An operation, with `$ref`s to components/parameters and components/responses followed.
    static func operation(_ document: JSONValue, _ method: String, _ path: String) throws -> JSONValue {
        try #require(document["paths"]?[path]?[method.lowercased()], "\(method) \(path) is not documented")
    }

    static func followed(_ value: JSONValue, in document: JSONValue) -> JSONValue {
        if let reference = value["$ref"]?.stringValue, let target = resolve(reference, in: document) { return target }
        return value
    }

    // MARK: - The embedded copy

    @Test func embeddedDocumentEqualsTheRepositoryFile() throws {
        let text = try String(contentsOf: OpenAPIDocumentTests.fileURL, encoding: .utf8)
        // The EmbedOpenAPIDocument plugin compiles the file in at build time; this reads it from the source tree.
        #expect(OpenAPIDocument.json == text, "the EmbedOpenAPIDocument plugin embedded another text than openapi/vouch.openapi.json")
    }

    /// The audit filter's `action` lists every audit action the daemon records, and no other.
    @Test func theAuditActionsAreTheDaemons() throws {
        let parameters = try #require(try Self.document()["paths"]?["/v1/audit"]?["get"]?["parameters"]?.arrayValue)
        let action = try #require(parameters.first { $0["name"]?.stringValue == "action" })
        #expect(action["schema"]?["enum"]?.arrayValue?.compactMap(\.stringValue) == AuditAction.allCases.map(\.rawValue))
    }

    @Test func theRouteServesTheEmbeddedDocument() throws {
        let response = try OpenAPIDocumentTests.withApplication { $0.response(to: HTTPRequest(method: "GET", path: "/v1/openapi.json")) }
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.body == Array(OpenAPIDocument.json.utf8))
    }

    // MARK: - Shape

    @Test func isOpenAPI31JSON() throws {
        let document = try OpenAPIDocumentTests.document()
        #expect(document["openapi"] == .string("3.1.0"))
        #expect(document["info"]?["title"] == .string("Vouch"))
        #expect(document["info"]?["version"]?.stringValue?.isEmpty == false)
        #expect(document["paths"]?.objectValue?.keys.isEmpty == false)
    }

    @Test func everyReferenceResolves() throws {
        let document = try OpenAPIDocumentTests.document()
        var found: [String] = []
        OpenAPIDocumentTests.references(in: document, into: &found)
        #expect(found.count > 50)
        for reference in Set(found) {
            #expect(OpenAPIDocumentTests.resolve(reference, in: document) != nil, "\(reference) points nowhere")
        }
    }

    @Test func bearerAndAPIKeySchemesSecureEverythingButTheOperationsRoutes() throws {
        let document = try OpenAPIDocumentTests.document()
        let schemes = try #require(document["components"]?["securitySchemes"])
        #expect(schemes["bearerAuth"]?["type"] == .string("http"))
        #expect(schemes["bearerAuth"]?["scheme"] == .string("bearer"))
        #expect(schemes["apiKeyAuth"]?["type"] == .string("apiKey"))
        #expect(schemes["apiKeyAuth"]?["in"] == .string("header"))
        #expect(schemes["apiKeyAuth"]?["name"] == .string("X-API-Key"))
        #expect(document["security"] == .array([.object(["bearerAuth": .array([])]), .object(["apiKeyAuth": .array([])])]))
        // The event stream's credential is in its address (EventSource cannot send a header), so it declares none.
        let open = ["GET /healthz", "GET /readyz", "GET /metrics", "GET /v1/openapi.json", "GET /ofrep/v1/event-stream"]
        for operation in try OpenAPIDocumentTests.documentedOperations(document) {
            let parts = operation.split(separator: " ", maxSplits: 1).map(String.init)
            let entry = try OpenAPIDocumentTests.operation(document, parts[0], parts[1])
            if open.contains(operation) {
                #expect(entry["security"] == .array([]), "\(operation) needs no token")
            } else {
                #expect(entry["security"] == nil, "\(operation) must use the document's security")
                #expect(entry["responses"]?["401"] != nil, "\(operation) must document 401")
            }
        }
    }

    @Test func everyPathParameterIsDeclared() throws {
        let document = try OpenAPIDocumentTests.document()
        let paths = try #require(document["paths"]?.objectValue)
        for (path, item) in paths.members {
            let templated = Set(path.split(separator: "/").filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) })
            for method in item.objectValue?.keys ?? [] where OpenAPIDocumentTests.httpMethods.contains(method) {
                let declared = ((item["parameters"]?.arrayValue ?? []) + (item[method]?["parameters"]?.arrayValue ?? []))
                    .map { OpenAPIDocumentTests.followed($0, in: document) }
                    .filter { $0["in"] == .string("path") }
                let names = Set(declared.compactMap { $0["name"]?.stringValue })
                #expect(names == templated, "\(method.uppercased()) \(path) declares path parameters \(names.sorted()), the path has \(templated.sorted())")
                #expect(declared.allSatisfy { $0["required"] == .bool(true) }, "\(method.uppercased()) \(path): path parameters are required")
            }
        }
    }

    // MARK: - Agreement with the code

    @Test func everyRouteIsDocumentedAndEveryDocumentedOperationIsARoute() throws {
        let document = try OpenAPIDocumentTests.document()
        let routes = try OpenAPIDocumentTests.withApplication { $0.routePatterns }
        let documented = try OpenAPIDocumentTests.documentedOperations(document)
        #expect(routes.count >= 17)
        #expect(Set(routes).count == routes.count, "a route is registered twice")
        for route in routes {
            #expect(documented.contains(route), "\(route) is served but not in openapi/vouch.openapi.json")
        }
        for operation in documented {
            #expect(routes.contains(operation), "\(operation) is documented but vouchd does not serve it")
        }
    }

    @Test func actionParameterListsTheServedActions() throws {
        let document = try OpenAPIDocumentTests.document()
        let entry = try OpenAPIDocumentTests.operation(document, "POST", "/v1/fixes/{key}/{action}")
        let action = try #require(entry["parameters"]?.arrayValue?.first { $0["name"] == .string("action") })
        #expect(action["schema"]?["enum"] == .strings(FixController.servedActions.map(\.rawValue)))
        #expect(action["schema"]?["enum"]?.arrayValue?.count ?? 0 >= 6)
    }

    @Test func enumsMatchTheDomain() throws {
        let schemas = try #require(try OpenAPIDocumentTests.document()["components"]?["schemas"])
        #expect(schemas["FixState"]?["enum"] == .strings(FixState.allCases.map(\.rawValue)))
        #expect(schemas["Role"]?["enum"] == .strings(Role.allCases.map(\.rawValue)))
        #expect(schemas["Platform"]?["enum"] == .strings(Platform.allCases.map(\.rawValue)))
        let current = WCAGCatalog.criteria.filter { $0.level != "obsolete" }.map(\.number)
        #expect(schemas["WCAGCriterion"]?["enum"] == .strings(current))
        #expect(schemas["Fix"]?["properties"]?["allowed_actions"]?["items"]?["enum"] == .strings(FixAction.commands.map(\.rawValue)))
        #expect(schemas["AssistiveTech"]?["enum"] == .strings(AssistiveTechnology.allCases.map(\.rawValue)))
        #expect(schemas["Announcement"]?["enum"] == .strings(Announcement.allCases.map(\.rawValue)))
        let feedback = schemas["FeedbackSubmission"]?["properties"]
        #expect(feedback?["verdict"]?["enum"] == .strings(Verdict.allCases.map(\.rawValue)))
        #expect(feedback?["task_outcome"]?["enum"] == .strings(TaskOutcome.allCases.map(\.rawValue)))
        #expect(feedback?["severity"]?["enum"] == .strings(Severity.allCases.map(\.rawValue)))
        #expect(feedback?["channel"]?["enum"] == .strings(FeedbackChannel.allCases.map(\.rawValue)))
        #expect(schemas["FeedbackSubmission"]?["required"] == .strings(FeedbackDraft.requiredFields))
        #expect(schemas["EventType"]?["enum"] == .strings(WebhookEvent.types))
        #expect(schemas["Delivery"]?["properties"]?["status"]?["enum"] == .strings(WebhookDelivery.Status.allCases.map(\.rawValue)))
        #expect(schemas["ApprovalRequest"]?["properties"]?["decision"]?["enum"] == .strings(Approval.Decision.allCases.map(\.rawValue)))
    }

    @Test func pagingParametersMatchTheServer() throws {
        let document = try OpenAPIDocumentTests.document()
        let limit = try #require(document["components"]?["parameters"]?["Limit"])
        #expect(limit["in"] == .string("query"))
        #expect(limit["schema"]?["minimum"] == .int(1))
        #expect(limit["schema"]?["maximum"] == .int(Paging.maxLimit))
        #expect(limit["schema"]?["default"] == .int(Paging.defaultLimit))
        for path in ["/v1/fixes", "/v1/tokens", "/v1/audit"] {
            let names = try OpenAPIDocumentTests.operation(document, "GET", path)["parameters"]?.arrayValue?
                .map { OpenAPIDocumentTests.followed($0, in: document)["name"]?.stringValue ?? "" } ?? []
            #expect(names.contains("limit") && names.contains("cursor"), "GET \(path) pages with limit and cursor")
        }
        let state = try OpenAPIDocumentTests.operation(document, "GET", "/v1/fixes")["parameters"]?.arrayValue?
            .first { $0["name"] == .string("state") }
        #expect(state?["schema"]?["$ref"] == .string("#/components/schemas/FixState"))
    }

    @Test func requestBodiesRefuseUnknownFieldsAsTheServerDoes() throws {
        let document = try OpenAPIDocumentTests.document()
        let schemas = try #require(document["components"]?["schemas"])
        for name in ["FixCreate", "FixPatch", "FixActionRequest", "TargetChange", "TokenCreate", "TesterCreate", "TesterPatch",
                     "WithdrawRequest", "EnrollRequest", "FeedbackSubmission", "CriteriaInput", "RolloutRequest", "ApprovalRequest",
                     "WebhookCreate", "WebhookPatch", "TesterLinkCreate"] {
            #expect(schemas[name]?["additionalProperties"] == .bool(false), "\(name) must refuse unknown fields")
        }
        let writable = Set(schemas["FixCreate"]?["properties"]?.objectValue?.keys ?? [])
        #expect(writable == ["key", "title", "description", "ui_area", "platforms", "wcag", "expected_announcement", "language"])
        #expect(schemas["FixCreate"]?["required"] == .strings(["key", "title", "ui_area", "platforms"]))
        #expect(schemas["TokenCreate"]?["required"] == .strings(["name", "role"]))
        // The OFREP context takes any attributes, so it must not refuse them.
        #expect(schemas["OFREPContext"]?["additionalProperties"] == .bool(true))
    }

    @Test func errorsAreProblemDocumentsExceptOFREPs() throws {
        let document = try OpenAPIDocumentTests.document()
        for operation in try OpenAPIDocumentTests.documentedOperations(document) {
            let parts = operation.split(separator: " ", maxSplits: 1).map(String.init)
            let responses = try #require(try OpenAPIDocumentTests.operation(document, parts[0], parts[1])["responses"]?.objectValue)
            for (status, response) in responses.members where status.hasPrefix("4") || status.hasPrefix("5") {
                let content = OpenAPIDocumentTests.followed(response, in: document)["content"]
                // What the HTTP server answers before any route runs is a problem document on every path, OFREP's too;
                // OFREP's own 400 is OFREP's JSON, and a malformed request head gets the server's problem.
                let serverMade = ["413", "414", "431", "501"].contains(status)
                if parts[1].hasPrefix("/ofrep/") && status == "400" {
                    #expect(content?["application/json"] != nil, "\(operation) 400 follows OFREP")
                    #expect(content?["application/problem+json"]?["schema"]?["$ref"] == .string("#/components/schemas/Problem"),
                            "\(operation) 400 for a malformed head is a problem")
                } else if parts[1].hasPrefix("/ofrep/") && !serverMade {
                    #expect(content?["application/problem+json"] == nil, "\(operation) \(status) follows OFREP")
                    if status == "401" || status == "403" { #expect(content == nil, "\(operation) \(status) has no body in OFREP") }
                } else {
                    #expect(content?["application/problem+json"]?["schema"]?["$ref"] == .string("#/components/schemas/Problem"),
                            "\(operation) \(status) must be application/problem+json")
                }
            }
        }
    }

    @Test func bulkEvaluationDocumentsETagAndNotModified() throws {
        let document = try OpenAPIDocumentTests.document()
        let entry = try OpenAPIDocumentTests.operation(document, "POST", "/ofrep/v1/evaluate/flags")
        #expect(entry["parameters"]?.arrayValue?.contains { $0["name"] == .string("If-None-Match") && $0["in"] == .string("header") } == true)
        #expect(entry["responses"]?["200"]?["headers"]?["ETag"] != nil)
        #expect(entry["responses"]?["304"]?["headers"]?["ETag"] != nil)
        #expect(entry["responses"]?["304"]?["content"] == nil)
        let single = try OpenAPIDocumentTests.operation(document, "POST", "/ofrep/v1/evaluate/flags/{key}")
        #expect(single["responses"]?["404"]?["content"]?["application/json"]?["schema"]?["$ref"] == .string("#/components/schemas/OFREPFlagNotFound"))
    }
}
