import Foundation
import Testing
import VouchJSON
import VouchTestSupport

/// The real `vouchd` with event streams open: a stop ends them all and exits 0, and a credential it handed out
/// before a restart still opens a stream after it (the signing key lives in the database).
@Suite(.serialized) struct EventStreamDaemonTests {
    /// A fix and an sdk token on the daemon; returns the token's stream address.
    func streamAddress(_ daemon: DaemonProcess) throws -> String {
        let api = DaemonAPI(port: daemon.port, token: daemon.adminToken)
        try api.require("POST", "/v1/fixes", json: #"{"key":"tv-channel-selector-labels","title":"T","ui_area":"TV channel selector","platforms":["ios"]}"#)
        let sdk = try #require(try api.require("POST", "/v1/tokens", json: #"{"name":"tv app","role":"sdk"}"#)["token"]?.stringValue)
        let bulk = try api.call("POST", "/ofrep/v1/evaluate/flags", json: #"{"context":{"targetingKey":"user-1"}}"#, token: sdk)
        return try #require(bulk.json["eventStreams"]?.arrayValue?.first?["url"]?.stringValue)
    }

    @Test func sigtermEndsEveryOpenStreamAndExitsCleanly() throws {
        let temporary = try TemporaryDirectory("vouchd-stream-tests")
        let directory = temporary.path
        let daemon = try DaemonProcess(stateDirectory: directory)
        let url = try streamAddress(daemon)
        let streams = try (0..<50).map { index in try EventStreamClient(url: url, sourceAddress: "127.0.3.\(1 + index % 10)") }
        #expect(streams.allSatisfy { $0.status == 200 })
        let started = Date()
        #expect(daemon.stop() == 0)
        let seconds = Date().timeIntervalSince(started)
        #expect(seconds < 5, "vouchd took \(seconds) s to stop with 50 streams open")
        #expect(streams.allSatisfy { $0.closes(within: 1) }, "every stream must have ended")
        #expect(!daemon.logText.contains("credential="), "a stream's address must never be logged")
    }

    @Test func anAddressHandedOutBeforeARestartStillOpensAStream() throws {
        let temporary = try TemporaryDirectory("vouchd-stream-tests")
        let directory = temporary.path
        let first = try DaemonProcess(stateDirectory: directory)
        let url = try streamAddress(first)
        #expect(first.stop() == 0)
        let second = try DaemonProcess(stateDirectory: directory)
        defer { _ = second.stop() }
        let moved = url.replacingOccurrences(of: "127.0.0.1:\(first.port)", with: "127.0.0.1:\(second.port)")
        #expect(try EventStreamClient(url: moved).status == 200)
    }
}
