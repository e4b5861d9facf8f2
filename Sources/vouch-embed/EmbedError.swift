/// A reason the text cannot be embedded, worded for the person whose build failed.
struct EmbedError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
