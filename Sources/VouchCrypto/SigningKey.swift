import CCrypto

/// A freshly generated private key that signs as an identity provider would. Vouch itself never signs a JOSE object;
/// this exists so tests of ID token checks use real keys made by the same libcrypto, never fixed fakes.
public final class SigningKey: @unchecked Sendable {
    public let algorithm: SignatureAlgorithm
    private let key: OpaquePointer

    private init(algorithm: SignatureAlgorithm, key: OpaquePointer) {
        self.algorithm = algorithm
        self.key = key
    }

    deinit { EVP_PKEY_free(key) }

    /// A new RSA key of `bits` bits (RS256), or a new P-256 key (ES256).
    public static func generate(_ algorithm: SignatureAlgorithm, rsaBits: Int32 = 2048) -> SigningKey {
        let typeName = algorithm == .rs256 ? "RSA" : "EC"
        guard let context = EVP_PKEY_CTX_new_from_name(nil, typeName, nil) else { preconditionFailure("libcrypto has no \(typeName)") }
        defer { EVP_PKEY_CTX_free(context) }
        precondition(EVP_PKEY_keygen_init(context) == 1, "EVP_PKEY_keygen_init failed")
        switch algorithm {
        case .rs256: precondition(EVP_PKEY_CTX_set_rsa_keygen_bits(context, rsaBits) == 1, "RSA key size refused")
        case .es256: precondition(EVP_PKEY_CTX_set_group_name(context, "P-256") == 1, "P-256 refused")
        }
        var key: OpaquePointer?
        precondition(EVP_PKEY_generate(context, &key) == 1 && key != nil, "key generation failed")
        return SigningKey(algorithm: algorithm, key: key!)
    }

    /// The public half as a JSON Web Key would carry it: RSA `n` and `e`, or P-256 `x` and `y`, as big-endian bytes.
    public var publicComponents: (first: [UInt8], second: [UInt8]) {
        switch algorithm {
        case .rs256: return (number(OSSL_PKEY_PARAM_RSA_N, length: nil), number(OSSL_PKEY_PARAM_RSA_E, length: nil))
        case .es256:
            return (number(OSSL_PKEY_PARAM_EC_PUB_X, length: ECDSASignature.coordinateLength),
                    number(OSSL_PKEY_PARAM_EC_PUB_Y, length: ECDSASignature.coordinateLength))
        }
    }

    /// The signature of `message`; for ES256 in JOSE's raw r||s form.
    public func sign(_ message: [UInt8]) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { preconditionFailure("EVP_MD_CTX_new failed") }
        defer { EVP_MD_CTX_free(context) }
        precondition(EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1, "EVP_DigestSignInit failed")
        var length = 0
        precondition(message.withUnsafeBufferPointer { EVP_DigestSign(context, nil, &length, $0.baseAddress, $0.count) } == 1)
        var signature = [UInt8](repeating: 0, count: length)
        let status = signature.withUnsafeMutableBufferPointer { out in
            message.withUnsafeBufferPointer { EVP_DigestSign(context, out.baseAddress, &length, $0.baseAddress, $0.count) }
        }
        precondition(status == 1, "EVP_DigestSign failed")
        let der = Array(signature.prefix(length))
        switch algorithm {
        case .rs256: return der
        case .es256:
            guard let raw = ECDSASignature.raw(fromDER: der) else { preconditionFailure("libcrypto gave an ECDSA signature that is not DER") }
            return raw
        }
    }

    private func number(_ name: String, length: Int?) -> [UInt8] {
        var found: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key, name, &found) == 1, let found else { preconditionFailure("key has no \(name)") }
        guard let bytes = BigNumber(owning: found).bytes(paddedTo: length) else { preconditionFailure("\(name) does not fit") }
        return bytes
    }
}
