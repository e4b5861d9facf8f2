import Foundation
import Testing
@testable import VouchMail

struct TransferEncodingTests {
    @Test(arguments: [
        ("plain text", "plain text"),
        ("ends with a space ", "ends with a space=20"),
        ("tab\tinside\t", "tab\tinside=09"),
        ("a = b", "a =3D b"),
        ("line\nbreaks\r\nkept\rall", "line\r\nbreaks\r\nkept\r\nall"),
        ("é", "=C3=A9"),
    ])
    func quotedPrintableVectors(text: String, encoded: String) {
        #expect(TransferEncoding.quotedPrintable(Array(text.utf8)) == encoded)
    }

    @Test func longLinesGetSoftBreaksAndDecodeBack() {
        let text = String(repeating: "0123456789", count: 20) + " é=" + String(repeating: "x", count: 74) + "é"
        let encoded = TransferEncoding.quotedPrintable(Array(text.utf8))
        for line in encoded.components(separatedBy: "\r\n") { #expect(line.count <= 76) }
        #expect(MIMEReader.decodeQuotedPrintable(encoded) == Array(text.utf8))
    }

    @Test func base64LinesAre76Characters() {
        let bytes = Array(String(repeating: "日本語", count: 50).utf8)
        let encoded = TransferEncoding.base64(bytes, lineLength: 76)
        let lines = encoded.components(separatedBy: "\r\n")
        #expect(lines.dropLast().allSatisfy { $0.count == 76 } && lines.last!.count <= 76)
        #expect(Data(base64Encoded: lines.joined()) == Data(bytes))
    }

    @Test func theShorterEncodingIsChosen() {
        #expect(TransferEncoding.encode(Array("Plain English".utf8)).encoding == .quotedPrintable)
        #expect(TransferEncoding.encode(Array("日本語の本文です".utf8)).encoding == .base64)
    }
}
