import CMicroHTTPD
import Foundation
import Synchronization
import Testing
@testable import VouchHTTP
import VouchTestSupport

/// A reusable response is answered with libmicrohttpd responses made once and lent to one request at a time
/// (`ReusableResponse`): every answer must still carry its own request's id, and a response changed after it was
/// made reusable (headers appended, as CORS does, or anything else) must be answered as it is now.
@Suite struct ReusableResponseTests {
    static let shared = HTTPResponse(status: 200, headers: [(name: "Content-Type", value: "application/json"), (name: "Vouch-Test", value: "1")],
                                     body: Array(#"{"value":true}"#.utf8)).reusable()

    /// The handler notes each request's id; answers are the shared response, or for `/changed` a copy of it that
    /// gained a header.
    final class Seen: Sendable {
        let ids = Mutex<[String]>([])
    }

    static func server(noting seen: Seen) -> HTTPServer {
        HTTPServer(configuration: .init(host: "127.0.0.1", port: 0, threadCount: 2)) { request in
            seen.ids.withLock { $0.append(request.requestID) }
            var answer = shared
            if request.path == "/changed" { answer.headers.append((name: "Vary", value: "Origin")) }
            // As CORS does: a header that depends on the request, more distinct values than variants are kept.
            if let origin = request.headers["origin"] { answer.headers.append((name: "Access-Control-Allow-Origin", value: origin)) }
            return answer
        }
    }

    @Test func everyAnswerCarriesItsOwnRequestsID() throws {
        let seen = Seen()
        let server = ReusableResponseTests.server(noting: seen)
        let port = try server.start()
        defer { server.stop() }
        // Ids of the server's own and the callers', of several lengths, interleaved on kept-alive connections from
        // four threads at once, so lent responses come back and go out again for other ids on both server threads.
        let answered = Seen()
        let failures = Seen()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            do {
                let connection = try RawConnection(port: port)
                for round in 0..<60 {
                    let own = round % 3 == 0 ? "caller-\(worker)-\(String(repeating: "x", count: round % 7))" : nil
                    let path = round % 10 == 9 ? "/changed" : "/flag"
                    let origin = round % 4 == 1 ? "https://app\(round % 7).example" : nil
                    try connection.send("POST \(path) HTTP/1.1\r\nHost: vouch\r\n\(own.map { "X-Request-Id: \($0)\r\n" } ?? "")"
                                        + "\(origin.map { "Origin: \($0)\r\n" } ?? "")Content-Length: 0\r\n\r\n")
                    guard let answer = try connection.readResponse() else { throw RawConnection.Failure("the server closed the connection") }
                    let id = answer.headers["x-request-id"] ?? ""
                    if let own, id != own { failures.ids.withLock { $0.append("sent \(own), answered \(id)") } }
                    if answer.body != #"{"value":true}"# || answer.headers["vouch-test"] != "1" {
                        failures.ids.withLock { $0.append("answer changed: \(answer)") }
                    }
                    if (answer.headers["vary"] != nil) != (path == "/changed") { failures.ids.withLock { $0.append("\(path): \(answer.headers)") } }
                    if answer.headers["access-control-allow-origin"] != origin {
                        failures.ids.withLock { $0.append("sent origin \(origin ?? "none"), answered \(answer.headers)") }
                    }
                    answered.ids.withLock { $0.append(id) }
                }
            } catch {
                failures.ids.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.ids.withLock { $0 } == [])
        let answeredIDs = answered.ids.withLock { $0 }
        #expect(answeredIDs.count == 240)
        #expect(answeredIDs.sorted() == seen.ids.withLock { $0 }.sorted(), "each answer carries the id of the request it answers")
        let generated = answeredIDs.filter { !$0.hasPrefix("caller-") }
        #expect(Set(generated).count == generated.count)
    }

    @Test func lentResponsesComeBackForIDsOfTheirLength() throws {
        let reusable = try #require(ReusableResponseTests.shared.reuse)
        let first = try #require(reusable.lend(requestID: "abc"))
        #expect(String(cString: first.requestID) == "abc")
        reusable.giveBack(first)
        let again = try #require(reusable.lend(requestID: "xyz"))
        #expect(again.response == first.response)
        #expect(String(cString: MHD_get_response_header(again.response, "X-Request-Id")) == "xyz")
        let longer = try #require(reusable.lend(requestID: "abcd"))
        #expect(longer.response != first.response)
        reusable.giveBack(again)
        reusable.giveBack(longer)
    }

    @Test func aCopyWithHeadersAppendedIsAVariantAndAnyOtherChangeIsNot() throws {
        let response = ReusableResponseTests.shared
        let reusable = try #require(response.reuse)
        #expect(reusable.appendedHeaders(of: response)?.isEmpty == true)
        var withHeader = response
        withHeader.headers.append((name: "Vary", value: "Origin"))
        #expect(reusable.appendedHeaders(of: withHeader).map(Array.init)?.map(\.name) == ["Vary"])
        var changedHeader = response
        changedHeader.headers[1].value = "2"
        #expect(reusable.appendedHeaders(of: changedHeader) == nil)
        var fewerHeaders = response
        fewerHeaders.headers.removeLast()
        #expect(reusable.appendedHeaders(of: fewerHeaders) == nil)
        var otherBody = response
        otherBody.body = Array(#"{"value":false}"#.utf8)
        #expect(reusable.appendedHeaders(of: otherBody) == nil)
        var sameBytesOtherStorage = response
        sameBytesOtherStorage.body = Array(response.body)
        sameBytesOtherStorage.body.append(0)
        sameBytesOtherStorage.body.removeLast()
        #expect(reusable.appendedHeaders(of: sameBytesOtherStorage) == nil, "the body is told by its storage, not compared")
        var otherStatus = response
        otherStatus.status = 201
        #expect(reusable.appendedHeaders(of: otherStatus) == nil)
        #expect(HTTPResponse(status: 200).reuse == nil)
    }

    @Test func variantsAreKeptUpToTheLimitThenAnsweredTheUsualWay() throws {
        let reusable = try #require(HTTPResponse(status: 200, body: Array("x".utf8)).reusable().reuse)
        var lent: [ReusableResponse.Lent] = []
        // The first variant is the answer as made, with nothing appended; the others fill the rest.
        for number in 0..<(ReusableResponse.variantLimit - 1) {
            let appended = [(name: "Access-Control-Allow-Origin", value: "https://app\(number).example")]
            lent.append(try #require(reusable.lend(requestID: "id", appended: appended[...])))
            #expect(String(cString: MHD_get_response_header(lent[number].response, "Access-Control-Allow-Origin")) == "https://app\(number).example")
        }
        #expect(reusable.lend(requestID: "id", appended: [(name: "Access-Control-Allow-Origin", value: "https://other.example")][...]) == nil)
        for one in lent { reusable.giveBack(one) }
        let again = try #require(reusable.lend(requestID: "xy", appended: [(name: "Access-Control-Allow-Origin", value: "https://app2.example")][...]))
        #expect(again.response == lent[2].response)
        reusable.giveBack(again)
    }
}
