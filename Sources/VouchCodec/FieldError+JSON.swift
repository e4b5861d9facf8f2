import VouchDomain
import VouchJSON

extension FieldError {
    public var jsonValue: JSONValue { .object(["field": .string(field), "message": .string(message)]) }
}
