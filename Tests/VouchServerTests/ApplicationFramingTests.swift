import Foundation
import Testing
import VouchTestSupport

/// A target the HTTP layer refuses (RFC 9112 §3.2) never reaches the application behind it.
@Suite struct ApplicationFramingTests {
    /// The issue's own requests against the application: `fix-a%00zzz` used to be served as `fix-a`, and
    /// `limit=5%005` read as 5.
    @Test func aNulInTheTargetNeverReachesTheApplication() throws {
        let live = try InProcessServer()
        try live.call("POST", "/v1/fixes", json: #"{"key":"fix-a","title":"T","ui_area":"Area","platforms":["ios"]}"#)
        #expect(try live.call("GET", "/v1/fixes/fix-a").status == 200)
        for target in ["/v1/fixes/fix-a%00zzz", "/v1/fixes?limit=5%005", "/v1/fixes/fix-a%00"] {
            let connection = try RawConnection(port: live.port)
            try connection.send("GET \(target) HTTP/1.1\r\nHost: vouch\r\nAuthorization: Bearer \(live.adminToken)\r\n\r\n")
            let answer = try #require(try connection.readResponse())
            #expect(answer.status == 400, "\(target)")
            #expect(answer.headers["content-type"] == "application/problem+json")
            #expect(answer.headers["x-request-id"]?.isEmpty == false)
            #expect(!answer.body.contains("fix-a"), "\(target) was served: \(answer.body)")
        }
    }
}
