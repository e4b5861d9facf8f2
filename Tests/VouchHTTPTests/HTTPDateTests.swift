import CMicroHTTPD
import Foundation
import Testing
@testable import VouchHTTP
import VouchTestSupport

/// `HTTPDate` writes the `Date` header of lent responses without the C library: it must write what `gmtime_r` and
/// `strftime` do for RFC 9110's IMF-fixdate, on every day, and lent responses must show the second they are lent in.
@Suite struct HTTPDateTests {
    static func fromCLibrary(_ second: Int) -> String {
        var time = time_t(second)
        var parts = tm()
        gmtime_r(&time, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test func knownDates() {
        #expect(HTTPDate.string(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.string(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT", "RFC 9110's own example")
        #expect(HTTPDate.string(951_782_400) == "Tue, 29 Feb 2000 00:00:00 GMT")
        #expect(HTTPDate.string(4_107_542_399) == "Sun, 28 Feb 2100 23:59:59 GMT")
        #expect(HTTPDate.string(4_107_542_400) == "Mon, 01 Mar 2100 00:00:00 GMT", "2100 is not a leap year")
        #expect(HTTPDate.string(HTTPDate.lastSecond) == "Fri, 31 Dec 9999 23:59:59 GMT")
        #expect(HTTPDate.string(HTTPDate.lastSecond + 1) == "Fri, 31 Dec 9999 23:59:59 GMT", "later seconds are clamped")
        #expect(HTTPDate.string(-1) == "Thu, 01 Jan 1970 00:00:00 GMT", "earlier seconds are clamped")
    }

    /// Every day from 1970 to 2400, each at a different time of day, against the C library.
    @Test func everyDayMatchesTheCLibrary() {
        var mismatches: [String] = []
        for day in 0..<157_000 {
            let second = day * 86_400 + (day &* 7_919) % 86_400
            let ours = HTTPDate.string(second)
            if ours.utf8.count != HTTPDate.length || ours != HTTPDateTests.fromCLibrary(second) {
                mismatches.append("\(second): \(ours) against \(HTTPDateTests.fromCLibrary(second))")
                if mismatches.count > 5 { break }
            }
        }
        #expect(mismatches == [])
    }

    @Test func aLentResponseShowsTheSecondItIsLentIn() throws {
        let reusable = try #require(HTTPResponse(status: 200, body: Array("x".utf8)).reusable().reuse)
        let first = try #require(reusable.lend(requestID: "id", second: 1_000_000_000))
        #expect(String(cString: try #require(MHD_get_response_header(first.response, "Date"))) == "Sun, 09 Sep 2001 01:46:40 GMT")
        reusable.giveBack(first)
        let later = try #require(reusable.lend(requestID: "id", second: 1_000_000_061))
        #expect(later.response == first.response)
        #expect(String(cString: try #require(MHD_get_response_header(later.response, "Date"))) == "Sun, 09 Sep 2001 01:47:41 GMT")
        reusable.giveBack(later)
        let earlier = try #require(reusable.lend(requestID: "id", second: 999_999_999))
        #expect(String(cString: try #require(MHD_get_response_header(earlier.response, "Date"))) == "Sun, 09 Sep 2001 01:46:39 GMT",
                "a clock set back is shown too")
        reusable.giveBack(earlier)
    }

    @Test func anAnswersOwnDateIsKept() throws {
        let answer = HTTPResponse(status: 200, headers: [(name: "date", value: "Mon, 01 Jan 2001 00:00:00 GMT")], body: Array("x".utf8))
        let reusable = try #require(answer.reusable().reuse)
        let lent = try #require(reusable.lend(requestID: "id", second: 1_000_000_000))
        #expect(String(cString: try #require(MHD_get_response_header(lent.response, "Date"))) == "Mon, 01 Jan 2001 00:00:00 GMT")
        reusable.giveBack(lent)
        let again = try #require(reusable.lend(requestID: "id", second: 1_000_000_100))
        #expect(String(cString: try #require(MHD_get_response_header(again.response, "Date"))) == "Mon, 01 Jan 2001 00:00:00 GMT")
        reusable.giveBack(again)
    }

    /// Over HTTP, answers from lent responses (the second request gets the first one's back) carry one `Date` each,
    /// today's: libmicrohttpd's own is not added beside it.
    @Test func lentAnswersCarryOneDateOfNow() throws {
        let server = ReusableResponseTests.server(noting: ReusableResponseTests.Seen())
        let port = try server.start()
        defer { server.stop() }
        let connection = try RawConnection(port: port)
        let before = HTTPDate.currentSecond()
        try connection.send("GET /a HTTP/1.1\r\nHost: vouch\r\n\r\nGET /b HTTP/1.1\r\nHost: vouch\r\nConnection: close\r\n\r\n")
        let (text, closed) = connection.readUntilClosed(within: 5)
        let after = HTTPDate.currentSecond()
        #expect(closed)
        let dates = text.components(separatedBy: "\r\n").filter { $0.lowercased().hasPrefix("date:") }
        #expect(dates.count == 2, "one Date per answer: \(text)")
        let allowed = Set((before...after).map { "Date: " + HTTPDate.string($0) })
        for date in dates { #expect(allowed.contains(date), "\(date) is not between \(before) and \(after)") }
    }
}
