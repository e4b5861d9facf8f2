import Foundation
import Testing
import VouchTestSupport

/// `scripts/run-daemon` says whether the admin token file exists, instead of the first start's words on every start.
struct RunDaemonNoteTests {
    func note(_ directory: String) throws -> String {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [OperationsTests.repository.appendingPathComponent("scripts/admin-token-note").path, directory]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func theNoteFollowsTheStateDirectory() throws {
        let temporary = try TemporaryDirectory("vouch-note")
        let directory = temporary.path
        #expect(try note(directory) == "vouchd: first start: the admin token will be written to \(directory)/admin.token (mode 0600)\n")
        #expect(FileManager.default.createFile(atPath: directory + "/vouch.sqlite3", contents: Data()))
        #expect(try note(directory).contains("has a database but no admin.token file"))
        #expect(FileManager.default.createFile(atPath: directory + "/admin.token", contents: Data()))
        #expect(try note(directory) == "vouchd: the admin token is in \(directory)/admin.token (mode 0600), written on the first start\n")
    }
}
