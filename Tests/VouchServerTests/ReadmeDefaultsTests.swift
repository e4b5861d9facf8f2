import Foundation
import Testing
@testable import VouchServer
@testable import VouchServerKit
import VouchTestSupport

/// The README's table of the six promotion criteria says each default as a `vouchd.conf` line; the built vouchd must
/// print exactly those lines as its defaults, so the README cannot drift from what `status` will count.
struct ReadmeDefaultsTests {
    /// Every "`criteria.… = …`" the README quotes, as "key = value".
    static func quotedCriteria() throws -> [String] {
        let readme = try String(contentsOf: OperationsTests.repository.appendingPathComponent("README.md"), encoding: .utf8)
        return readme.matches(of: /`(criteria\.[a-z_]+ = [^`]+)`/).map { String($0.output.1) }
    }

    @Test func theReadmeListsEveryCriterionWithTheDefaultThatVouchdUses() throws {
        let quoted = try Self.quotedCriteria()
        let keys = DaemonSettings.all.map(\.key).filter { $0.hasPrefix("criteria.") }
        #expect(keys.count == 6)
        #expect(Set(quoted.map { String($0.prefix { $0 != " " }) }) == Set(keys), "\(quoted)")

        // An empty configuration file, so nothing on this machine (an /etc/vouch/vouchd.conf) changes a default.
        let temporary = try TemporaryDirectory("vouch-readme")
        let directory = temporary.path
        let config = directory + "/vouchd.conf"
        #expect(FileManager.default.createFile(atPath: config, contents: Data()))
        let run = try VouchdRun(["check-config", "--config", config])
        #expect(run.status == 0, "\(run.errors)")
        let lines = Set(run.output.split(separator: "\n").map(String.init))
        for line in quoted {
            #expect(lines.contains(line + "    # from default"), "README says `\(line)`; vouchd check-config says otherwise")
        }
    }
}
