import VouchCrypto
import VouchJSON

/// The signing keys an identity provider publishes at its `jwks_uri` (RFC 7517 §5), kept as libcrypto keys.
/// Keys Vouch cannot use (encryption keys, other key types and curves, RSA shorter than 2048 bits) are left out and
/// counted, so `vouchd check-config` can say what it found; a key that claims to be usable but is broken is an error.
public struct JSONWebKeySet: Sendable {
    public struct Key: Sendable {
        /// The key's `kid`, which a token's header names; nil when the provider gave none.
        public var id: String?
        public var publicKey: PublicKey
        public var algorithm: SignatureAlgorithm { publicKey.algorithm }
    }

    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public var reason: String
        public var description: String { "the key set is not usable: \(reason)" }

        public init(reason: String) { self.reason = reason }
    }

    public var keys: [Key]
    /// How many published keys were left out because Vouch does not verify with them.
    public var skipped: Int

    public init(keys: [Key], skipped: Int = 0) {
        self.keys = keys
        self.skipped = skipped
    }

    public init(json bytes: [UInt8]) throws(Invalid) {
        let document: JSONValue
        do { document = try JSONParser.parse(bytes) } catch { throw Invalid(reason: "not JSON (\(error.reason))") }
        guard let entries = document["keys"]?.arrayValue else { throw Invalid(reason: "no \"keys\" array") }
        var keys: [Key] = []
        var skipped = 0
        for (index, entry) in entries.enumerated() {
            guard let object = entry.objectValue else { throw Invalid(reason: "key \(index + 1) is not an object") }
            if let key = try Self.key(object, number: index + 1) { keys.append(key) } else { skipped += 1 }
        }
        self.init(keys: keys, skipped: skipped)
    }

    /// The key a token with header `kid` and `alg` is checked with. With a `kid`, only the key of that id and
    /// algorithm; without one, the only key of the algorithm (several would be a guess, so none is chosen).
    public func key(id: String?, algorithm: SignatureAlgorithm) -> Key? {
        let candidates = keys.filter { $0.algorithm == algorithm }
        if let id { return candidates.first { $0.id == id } }
        return candidates.count == 1 ? candidates[0] : nil
    }

    private static func key(_ object: JSONObject, number: Int) throws(Invalid) -> Key? {
        let id = object["kid"]?.stringValue
        let name = id.map { "key \"\($0)\"" } ?? "key \(number)"
        if let use = object["use"] {
            guard use.stringValue == "sig" else { return nil }
        }
        if let operations = object["key_ops"]?.arrayValue {
            guard operations.contains(.string("verify")) else { return nil }
        }
        let declared = object["alg"]?.stringValue
        switch object["kty"]?.stringValue {
        case "RSA":
            guard declared == nil || declared == SignatureAlgorithm.rs256.rawValue else { return nil }
            guard let modulus = try bytes(object, "n", key: name), let exponent = try bytes(object, "e", key: name) else {
                throw Invalid(reason: "\(name) is RSA but lacks \"n\" or \"e\"")
            }
            // Too short is refused by PublicKey.rsa; so is a number libcrypto will not take.
            guard let publicKey = PublicKey.rsa(modulus: modulus, exponent: exponent) else {
                if modulus.drop(while: { $0 == 0 }).count * 8 < PublicKey.minimumRSABits { return nil }
                throw Invalid(reason: "\(name) is not a usable RSA public key")
            }
            return Key(id: id, publicKey: publicKey)
        case "EC":
            guard object["crv"]?.stringValue == "P-256", declared == nil || declared == SignatureAlgorithm.es256.rawValue else { return nil }
            guard let x = try bytes(object, "x", key: name), let y = try bytes(object, "y", key: name) else {
                throw Invalid(reason: "\(name) is EC but lacks \"x\" or \"y\"")
            }
            guard let publicKey = PublicKey.p256(x: x, y: y) else { throw Invalid(reason: "\(name) is not a point on P-256") }
            return Key(id: id, publicKey: publicKey)
        default:
            return nil
        }
    }

    private static func bytes(_ object: JSONObject, _ member: String, key name: String) throws(Invalid) -> [UInt8]? {
        guard let value = object[member] else { return nil }
        guard let text = value.stringValue, let bytes = Base64URL.decode(text), !bytes.isEmpty else {
            throw Invalid(reason: "\(name) has a \"\(member)\" that is not base64url")
        }
        return bytes
    }
}
