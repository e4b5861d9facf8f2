import Foundation
import VouchCodec
import VouchDomain
import VouchHTTP
import VouchJSON
import VouchStore

/// `/v1/fixes/{key}/targets`: keys the flag is on for directly, such as a QA device.
struct TargetController {
    let store: any Store
    let clock: @Sendable () -> Date

    static let maxKeysPerRequest = 1_000
    static let maxKeyLength = 256

    func register(in router: inout APIRouter) {
        router.add("GET", "/v1/fixes/{key}/targets", .readAll, list)
        router.add("POST", "/v1/fixes/{key}/targets", .editFixes, change)
    }

    func list(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let key = context.parameters["key"]
        let targets = try store.targets(of: key)
        return .json(.object(["fix": .string(key), "targets": .strings(targets)]))
    }

    func change(_ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        var reader = JSONFieldReader(object: try RequestBody.object(request))
        let add = reader.stringList("add") ?? []
        let remove = reader.stringList("remove") ?? []
        if add.isEmpty && remove.isEmpty && reader.errors.isEmpty {
            reader.addError(FieldError(field: "add", message: "give targeting keys to add or to remove (\"add\": [...], \"remove\": [...])"))
        }
        for (field, keys) in [("add", add), ("remove", remove)] {
            if keys.count > TargetController.maxKeysPerRequest {
                reader.addError(FieldError(field: field, message: "at most \(TargetController.maxKeysPerRequest) keys per request, got \(keys.count)"))
            }
            for (index, key) in keys.enumerated() {
                if let problem = TargetController.problem(with: key) {
                    reader.addError(FieldError(field: "\(field)[\(index)]", message: problem))
                }
            }
        }
        try reader.finish()
        let key = context.parameters["key"]
        let result = try store.changeTargets(of: key, adding: add, removing: remove, by: context.requester, at: clock())
        return .json(.object([
            "fix": .string(key), "targets": .strings(result.targets), "added": .strings(result.added), "removed": .strings(result.removed),
        ]))
    }

    /// What is wrong with a targeting key, or nil when it is acceptable.
    static func problem(with key: String) -> String? {
        if key.isEmpty { return "must not be empty" }
        if key.count > maxKeyLength { return "must be at most \(maxKeyLength) characters, got \(key.count)" }
        if key.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return "must not contain control characters" }
        return nil
    }
}
