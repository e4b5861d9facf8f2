import Foundation
import Testing
@testable import VouchCrypto

/// Signatures made by the `openssl` command (another program, another code path through libcrypto than ours) are
/// checked by PublicKey, and the keys are built from the numbers `openssl` prints, as a JSON Web Key would carry them.
@Suite final class PublicKeyTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("vouch-publickey-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    private func openssl(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "openssl \(arguments.joined(separator: " ")) failed")
        return data
    }

    private func signedMessage(keyFile: String) throws -> (message: [UInt8], signature: [UInt8]) {
        let message = Array("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbmEifQ".utf8)
        try Data(message).write(to: folder.appendingPathComponent("message"))
        _ = try openssl(["dgst", "-sha256", "-sign", keyFile, "-out", "signature", "message"])
        return (message, Array(try Data(contentsOf: folder.appendingPathComponent("signature"))))
    }

    private static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    }

    @Test func anRSASignatureFromOpensslIsAcceptedAndATamperedOneRefused() throws {
        _ = try openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "rsa.pem"])
        let printed = String(decoding: try openssl(["rsa", "-in", "rsa.pem", "-noout", "-modulus"]), as: UTF8.self)
        let modulus = Self.bytes(hex: String(printed.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst("Modulus=".count)))
        let key = try #require(PublicKey.rsa(modulus: modulus, exponent: [0x01, 0x00, 0x01]))
        let (message, signature) = try signedMessage(keyFile: "rsa.pem")
        #expect(key.verify(.rs256, signature: signature, message: message))
        #expect(!key.verify(.rs256, signature: signature, message: message + [0x20]))
        #expect(!key.verify(.es256, signature: signature, message: message))
    }

    @Test func anECDSASignatureFromOpensslIsAcceptedInJOSEsRawForm() throws {
        _ = try openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "ec.pem"])
        // The DER public key ends with the 65-byte uncompressed point 04 || x || y.
        let point = Array(try openssl(["pkey", "-in", "ec.pem", "-pubout", "-outform", "DER"]).suffix(65))
        #expect(point.first == 0x04)
        let key = try #require(PublicKey.p256(x: Array(point[1..<33]), y: Array(point[33...])))
        let (message, der) = try signedMessage(keyFile: "ec.pem")
        let raw = try #require(ECDSASignature.raw(fromDER: der))
        #expect(raw.count == 64)
        #expect(ECDSASignature.der(fromRaw: raw) == der)
        #expect(key.verify(.es256, signature: raw, message: message))
        #expect(!key.verify(.es256, signature: der, message: message), "the DER form is not what JOSE carries")
        #expect(!key.verify(.es256, signature: raw, message: Array(message.dropLast())))
    }

    @Test func ecdsaIntegersKeepTheirSignAndLength() {
        // r with its top bit set needs a leading zero in DER; s with leading zeros loses them.
        let raw: [UInt8] = [0x80] + [UInt8](repeating: 1, count: 31) + [0, 0] + [UInt8](repeating: 2, count: 30)
        let der = ECDSASignature.der(fromRaw: raw)
        #expect(der?.prefix(5) == [0x30, 0x43, 0x02, 0x21, 0x00])
        #expect(der.flatMap(ECDSASignature.raw(fromDER:)) == raw)
        #expect(ECDSASignature.der(fromRaw: Array(raw.dropLast())) == nil)
        #expect(ECDSASignature.raw(fromDER: [0x30, 0x00]) == nil)
    }

    @Test func unusableKeysAreNotBuilt() {
        #expect(PublicKey.p256(x: [UInt8](repeating: 1, count: 32), y: [UInt8](repeating: 2, count: 32)) == nil)
        #expect(PublicKey.p256(x: [1], y: [2]) == nil)
        #expect(PublicKey.rsa(modulus: [], exponent: [1, 0, 1]) == nil)
        let short = SigningKey.generate(.rs256, rsaBits: 1024).publicComponents
        #expect(PublicKey.rsa(modulus: short.first, exponent: short.second) == nil)
    }

    @Test(arguments: SignatureAlgorithm.allCases)
    func generatedKeysSignWhatTheirPublicHalfAccepts(algorithm: SignatureAlgorithm) throws {
        let key = SigningKey.generate(algorithm)
        let (first, second) = key.publicComponents
        let publicKey = try #require(algorithm == .rs256 ? PublicKey.rsa(modulus: first, exponent: second) : PublicKey.p256(x: first, y: second))
        let signature = key.sign(Array("message".utf8))
        #expect(publicKey.verify(algorithm, signature: signature, message: Array("message".utf8)))
        #expect(!publicKey.verify(algorithm, signature: signature, message: Array("massage".utf8)))
    }
}
