import Foundation
import VouchCrypto
import VouchDomain
import VouchIdentity
import VouchServer
import VouchServerKit
import VouchStore

/// The first admin token, made once when the database has no token at all.
enum AdminBootstrap {
    static let fileName = "admin.token"

    /// Creates the token and writes it to `<stateDirectory>/admin.token` with mode 0600.
    /// - Returns: the file's path when a token was made, nil when tokens already existed.
    static func run(application: VouchApplication, stateDirectory: String) throws -> String? {
        guard try application.store.tokenCount() == 0 else { return nil }
        let secret = TokenDirectory.makeSecret()
        let path = (stateDirectory as NSString).appendingPathComponent(fileName)
        // The file is written before the token exists, so a crash in between leaves no usable token nobody knows.
        try writePrivately(secret + "\n", to: path)
        let record = TokenRecord(id: "tok_" + SecureRandom.alphanumeric(count: 16), name: "admin", principalName: "admin", role: .admin,
                                 secretSHA256: Digest.sha256(secret), createdBy: "vouchd", createdAt: Date())
        // Another vouchd starting on the same database may have made the first token meanwhile: then this file holds a
        // secret that was never issued, and goes.
        guard try application.store.createFirstToken(record, principal: (try PrincipalName("admin", field: "name"), "name")) else {
            unlink(path)
            return nil
        }
        return path
    }

    static func writePrivately(_ text: String, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw DaemonError("cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        // An existing file keeps its old mode through O_CREAT, so set it explicitly.
        fchmod(descriptor, 0o600)
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(descriptor) == 0 else { throw DaemonError("cannot write \(path): \(String(cString: strerror(errno)))") }
    }
}
