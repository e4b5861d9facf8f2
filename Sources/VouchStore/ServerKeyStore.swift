/// The server's own signing keys, the same for every vouchd sharing the database.
public protocol ServerKeyStore: Sendable {
    /// The signing key called `name`, made with `generate` by the first caller and the same for every caller after.
    func serverKey(named name: String, generate: () -> [UInt8]) throws -> [UInt8]
}
