/// One problem with one input field, worded for the person who has to correct it.
public struct FieldError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field as the API names it (`ui_area`, `wcag[1]`, `context.targetingKey`).
    public var field: String
    /// What is wrong and what is allowed.
    public var message: String

    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { "\(field): \(message)" }
}

/// Several field problems found together, so a client can fix them all in one go.
public struct ValidationFailure: Error, Sendable, Equatable {
    public var errors: [FieldError]

    public init(_ errors: [FieldError]) {
        self.errors = errors
    }
}
