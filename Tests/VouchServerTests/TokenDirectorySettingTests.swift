import Foundation
import Testing
@testable import VouchServerKit
import VouchTestSupport

/// `webhooks.token_directory`: empty allows no github-dispatch webhook; set, it must be a folder vouchd can read.
struct TokenDirectorySettingTests {
    func problem(_ value: String) throws -> String? {
        var configuration = DaemonConfiguration()
        try configuration.set("webhooks.token_directory", value, source: "test", location: "test")
        do { try configuration.checkCombinations() } catch { return "\(error)" }
        return nil
    }

    @Test func aFolderThatIsThereIsTakenAndOneThatIsNotStopsTheStart() throws {
        let folder = try TemporaryDirectory()
        #expect(try problem("") == nil)
        #expect(try problem(folder.path) == nil)
        #expect(DaemonConfiguration().deliverySettings.shaping.tokenDirectory == "")
        let missing = folder.file("missing")
        #expect(try problem(missing)?.hasPrefix("webhooks.token_directory = '\(missing)' is not a folder vouchd can read") == true)
        try "x".write(toFile: folder.file("file"), atomically: true, encoding: .utf8)
        #expect(try problem(folder.file("file")) != nil)
    }
}
