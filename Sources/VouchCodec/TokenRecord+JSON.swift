import VouchDomain
import VouchJSON

extension TokenRecord {
    /// The API's token: never its secret, which only the answer that creates it shows.
    public var jsonObject: JSONObject {
        [
            "id": .string(id), "name": .string(name), "principal": .string(principalName), "role": .string(role.rawValue),
            "tester": .optional(testerID), "email": .optional(email), "event_streams": .bool(eventStreams),
            "flag_definitions": .bool(flagDefinitions),
            "created_by": .string(createdBy), "created_at": .string(Timestamp.string(createdAt)),
            "revoked_at": .optional(revokedAt.map(Timestamp.string)),
        ]
    }
}
