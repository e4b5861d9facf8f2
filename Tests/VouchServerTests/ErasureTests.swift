import Foundation
import Testing
import VouchJSON

/// Withdrawal erases a tester's personal data from the database file itself, not just from answers.
@Suite(.serialized) struct ErasureTests {
    func fileBytes(_ server: LiveServer) throws -> Data {
        var bytes = Data()
        for suffix in ["", "-wal"] {
            let path = server.directory + "/vouch.sqlite3" + suffix
            if FileManager.default.fileExists(atPath: path) { bytes.append(try Data(contentsOf: URL(fileURLWithPath: path))) }
        }
        return bytes
    }

    func contains(_ bytes: Data, _ text: String) -> Bool { bytes.range(of: Data(text.utf8)) != nil }

    @Test(arguments: [false, true]) func withdrawalLeavesNoPersonalDataInTheFile(purge: Bool) throws {
        let server = try LiveServer()
        try server.createChannelSelectorFix()
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/start")
        let body = #"{"name":"Zelda Quintessa-Marlowe","contact":"zelda.q.marlowe@example.org","assistive_tech":["switch_control:ios:17.9.4"],"targeting_keys":["acct-zq-7781"],"consent":"2026-11"}"#
        let id = try #require(try server.call("POST", "/v1/testers", json: body).json["id"]?.stringValue)
        try server.call("POST", "/v1/fixes/tv-channel-selector-labels/enrollments", json: #"{"testers":["\#(id)"]}"#)
        let feedback = FeedbackRoutesTests.passing(id, comment: "Quintessa says the switch scanning skips the logos")
        #expect(try server.call("POST", "/v1/fixes/tv-channel-selector-labels/feedback", json: feedback).status == 201)
        let before = try fileBytes(server)
        #expect(contains(before, "Zelda Quintessa-Marlowe"), "the check must be able to find the name before erasure")
        let answer = try server.call("POST", "/v1/testers/\(id)/withdraw", json: #"{"purge_feedback":\#(purge)}"#)
        #expect(answer.status == 200)
        let after = try fileBytes(server)
        for secret in ["Zelda Quintessa-Marlowe", "zelda.q.marlowe@example.org", "17.9.4", "acct-zq-7781", "Quintessa says"] {
            #expect(!contains(after, secret), "'\(secret)' is still in the database file after withdrawal")
        }
        let records = try server.call("GET", "/v1/fixes/tv-channel-selector-labels/feedback").json["feedback"]?.arrayValue ?? []
        if purge {
            #expect(records.isEmpty)
        } else {
            #expect(records.count == 1)
            #expect(records.first?["tester"]?.stringValue == "withdrawn")
            #expect(records.first?["comment"] == .null)
            #expect(records.first?["verdict"]?.stringValue == "passed")
        }
        #expect(try server.evaluate("tv-channel-selector-labels", targetingKey: "acct-zq-7781").json["value"] == .bool(false))
    }
}
