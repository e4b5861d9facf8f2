import Foundation
import Synchronization
import Testing
@testable import VouchDaemon
import VouchHTTP
@testable import VouchServer

/// Writes parked for a worker (`VouchApplication.respond(to:)` answers `.later`): one the server already answered is never
/// carried out afterwards, and a full or stopping pool answers 503 with words that say which.
@Suite struct ParkedWriteTests {
    static let fixBody = Array(#"{"key":"tv-channel-selector-labels","title":"T","ui_area":"TV channel selector","platforms":["ios"]}"#.utf8)

    func createFixRequest(_ server: InProcessServer) -> HTTPRequest {
        HTTPRequest(method: "POST", path: "/v1/fixes",
                    headers: ["authorization": "Bearer \(server.adminToken)", "content-type": "application/json"], body: ParkedWriteTests.fixBody)
    }

    /// What a parked write was answered, once it was.
    final class Answer: Sendable {
        let response = Mutex<HTTPResponse?>(nil)
    }

    /// Runs the `.later` closure of `reply` with a completion that records the answer.
    func park(_ application: VouchApplication, _ request: HTTPRequest) throws -> (completion: HTTPCompletion, answer: Answer) {
        guard case .later(let start) = application.respond(to: request) else { throw DaemonError("a write must be parked") }
        let answer = Answer()
        let completion = HTTPCompletion { response in answer.response.withLock { $0 = response } }
        start(completion)
        return (completion, answer)
    }

    @Test func aWriteTheServerAlreadyAnsweredIsNeverCarriedOut() throws {
        var settings = InProcessServer.testSettings()
        settings.workerThreads = 1
        let server = try InProcessServer(settings: settings)
        // The only worker is busy until released, so the write waits in the queue.
        let release = DispatchSemaphore(value: 0)
        server.application.workers.submit { release.wait() }
        let parked = try park(server.application, createFixRequest(server))
        // The server stops and answers it 503 before any worker took it.
        parked.completion.complete(Problem(status: 503, detail: "the server is stopping").response)
        release.signal()
        // Let the worker run whatever was queued.
        let done = DispatchSemaphore(value: 0)
        server.application.workers.submit { done.signal() }
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(parked.answer.response.withLock { $0?.status } == 503)
        #expect(try server.call("GET", "/v1/fixes/tv-channel-selector-labels").status == 404, "the refused write must not have happened")
    }

    @Test func aStoppingPoolSaysSoAndTheRequestIsNotCarriedOut() throws {
        let server = try InProcessServer()
        server.application.workers.stop()
        let parked = try park(server.application, createFixRequest(server))
        let answer = try #require(parked.answer.response.withLock { $0 })
        #expect(answer.status == 503)
        #expect(answer.header("Retry-After") == "1")
        #expect(String(decoding: answer.body, as: UTF8.self).contains("stopping"))
        #expect(try server.call("GET", "/v1/fixes/tv-channel-selector-labels").status == 404)
    }
}
