/// A configuration file, variable or flag vouchd cannot use: where it is and what is allowed (exit 78, EX_CONFIG).
public struct ConfigurationError: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
