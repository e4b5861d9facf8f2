/// A start-up or command failure, said in words for the operator.
public struct DaemonError: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
