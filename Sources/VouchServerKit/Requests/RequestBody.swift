import VouchHTTP
import VouchJSON

/// Reading JSON request bodies the same way on every route: media type first (415), then syntax (400).
package enum RequestBody {
    package static func json(_ request: HTTPRequest, emptyAllowed: Bool = false) throws -> JSONValue {
        if request.body.isEmpty {
            if emptyAllowed { return .object([:]) }
            throw Problem(status: 400, detail: "this route needs a JSON body")
        }
        guard let mediaType = request.mediaType else {
            throw Problem(status: 415, detail: "send the body with 'Content-Type: application/json'")
        }
        guard mediaType == "application/json" || mediaType.hasSuffix("+json") else {
            throw Problem(status: 415, detail: "the body's Content-Type is '\(mediaType)'; this route accepts application/json only")
        }
        return try JSONParser.parse(request.body)
    }

    package static func object(_ request: HTTPRequest, emptyAllowed: Bool = false) throws -> JSONObject {
        let value = try json(request, emptyAllowed: emptyAllowed)
        guard case .object(let object) = value else {
            throw Problem(status: 422, detail: "the body must be a JSON object", errors: [.init(field: "(body)", message: "must be a JSON object, got \(value.typeName)")])
        }
        return object
    }
}
