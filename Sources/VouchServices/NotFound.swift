/// What a request names does not exist, in words that say which: "tester t_… is not enrolled in fix …". The API
/// answers it as a 404 problem's detail; a missing record by kind and id is `StoreError.notFound`.
public struct NotFound: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
