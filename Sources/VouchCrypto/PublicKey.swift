import CCrypto

/// A public key that checks signatures: an RSA key built from its modulus and exponent, or a P-256 key from its point,
/// as a JSON Web Key gives them (RFC 7518 §6.3.1 and §6.2.1). Built through OpenSSL 3's EVP_PKEY_fromdata, which
/// refuses a point that is not on the curve.
///
/// Sendable because the EVP_PKEY is never changed after it is built, and OpenSSL allows one key to verify on several
/// threads at once.
public final class PublicKey: @unchecked Sendable {
    public let algorithm: SignatureAlgorithm
    let key: OpaquePointer

    init(algorithm: SignatureAlgorithm, key: OpaquePointer) {
        self.algorithm = algorithm
        self.key = key
    }

    deinit { EVP_PKEY_free(key) }

    /// RSA keys shorter than this are refused (RFC 7518 §3.3: "A key of size 2048 bits or larger MUST be used").
    public static let minimumRSABits = 2048

    /// An RSA public key from big-endian modulus and exponent bytes, or nil when libcrypto will not build one
    /// or the modulus is shorter than `minimumRSABits`.
    public static func rsa(modulus: [UInt8], exponent: [UInt8]) -> PublicKey? {
        guard !modulus.isEmpty, !exponent.isEmpty,
              let n = BigNumber(modulus), let e = BigNumber(exponent) else { return nil }
        // The builder keeps pointers to the numbers and reads them when the array is made, inside withParameters.
        let built = withExtendedLifetime((n, e)) {
            withParameters { builder -> Bool in
                OSSL_PARAM_BLD_push_BN(builder, vouch_param_rsa_n(), n.pointer) == 1
                    && OSSL_PARAM_BLD_push_BN(builder, vouch_param_rsa_e(), e.pointer) == 1
            }
        }
        guard let key = fromData(typeName: "RSA", parameters: built) else { return nil }
        guard EVP_PKEY_get_bits(key) >= minimumRSABits else {
            EVP_PKEY_free(key)
            return nil
        }
        return PublicKey(algorithm: .rs256, key: key)
    }

    /// A P-256 public key from its x and y coordinates (32 bytes each), or nil when they are not a point on the curve.
    public static func p256(x: [UInt8], y: [UInt8]) -> PublicKey? {
        guard x.count == ECDSASignature.coordinateLength, y.count == ECDSASignature.coordinateLength else { return nil }
        let point: [UInt8] = [0x04] + x + y // SEC 1 uncompressed point
        // The builder keeps a pointer to the point and copies it when the array is made, inside withParameters.
        let built = point.withUnsafeBytes { bytes in
            withParameters { builder -> Bool in
                OSSL_PARAM_BLD_push_utf8_string(builder, vouch_param_group_name(), vouch_group_p256(), 0) == 1
                    && OSSL_PARAM_BLD_push_octet_string(builder, vouch_param_public_key(), bytes.baseAddress, bytes.count) == 1
            }
        }
        guard let key = fromData(typeName: "EC", parameters: built) else { return nil }
        return PublicKey(algorithm: .es256, key: key)
    }

    /// True when `signature` is this key's signature of `message` under `algorithm`. An ES256 signature is in JOSE's
    /// raw r||s form. A mismatched algorithm is false, never an attempt with another one.
    public func verify(_ algorithm: SignatureAlgorithm, signature: [UInt8], message: [UInt8]) -> Bool {
        guard algorithm == self.algorithm else { return false }
        let encoded: [UInt8]
        switch algorithm {
        case .rs256: encoded = signature
        case .es256:
            guard let der = ECDSASignature.der(fromRaw: signature) else { return false }
            encoded = der
        }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        // "EVP_DigestVerify() returns 1 for success; any other value indicates failure."
        let status = encoded.withUnsafeBufferPointer { signatureBytes in
            message.withUnsafeBufferPointer { messageBytes in
                EVP_DigestVerify(context, signatureBytes.baseAddress, signatureBytes.count, messageBytes.baseAddress, messageBytes.count)
            }
        }
        return status == 1
    }

    // MARK: libcrypto parameter building

    /// The parameters `fill` pushes, as an OSSL_PARAM array the caller frees, or nil when a push failed. Names and
    /// values pushed must stay valid until this returns: the builder copies them only when it makes the array.
    private static func withParameters(_ fill: (OpaquePointer) -> Bool) -> UnsafeMutablePointer<OSSL_PARAM>? {
        guard let builder = OSSL_PARAM_BLD_new() else { return nil }
        defer { OSSL_PARAM_BLD_free(builder) }
        guard fill(builder) else { return nil }
        return OSSL_PARAM_BLD_to_param(builder)
    }

    private static func fromData(typeName: String, parameters: UnsafeMutablePointer<OSSL_PARAM>?) -> OpaquePointer? {
        guard let parameters else { return nil }
        defer { OSSL_PARAM_free(parameters) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, typeName, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_fromdata_init(context) == 1,
              EVP_PKEY_fromdata(context, &key, vouch_evp_pkey_public_key_selection(), parameters) == 1 else { return nil }
        return key
    }
}
