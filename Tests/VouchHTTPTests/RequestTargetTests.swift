import Testing
@testable import VouchHTTP

/// The request target as sent, before libmicrohttpd parses it.
@Suite struct RequestTargetTests {
    static func inspect(_ text: String) -> RequestTarget {
        Array(text.utf8).withUnsafeBufferPointer { RequestTarget($0) }
    }

    @Test(arguments: [
        ("/v1/fixes", nil, 0, false),
        ("/v1/fixes?", 9, 0, false),
        ("/v1/fixes?limit=5", 9, 1, false),
        ("/v1/fixes?limit=5&cursor=abc&state=testing", 9, 3, false),
        ("/a&b?x=1", 4, 1, false),
        ("/a?x=1?y=2", 2, 1, false),
        ("/v1/fixes/fix-a%00zzz", nil, 0, true),
        ("/v1/fixes?limit=5%005", 9, 1, true),
        ("/a%2500", nil, 0, false),
        ("/a%0", nil, 0, false),
    ] as [(String, Int?, Int, Bool)])
    func findsTheQueryItsParametersAndAnEncodedNUL(target: String, queryStart: Int?, parameters: Int, encodedNUL: Bool) {
        let inspected = RequestTargetTests.inspect(target)
        #expect(inspected.length == target.utf8.count)
        #expect(inspected.queryStart == queryStart)
        #expect(inspected.queryParameters == parameters)
        #expect(inspected.hasEncodedNUL == encodedNUL)
    }

    @Test func refusesANULATargetTooLongAndTooManyParameters() {
        let limits = RequestLimits(maxTargetBytes: 20, maxQueryParameters: 2)
        #expect(RequestTargetTests.inspect("/a?x=1&y=2").problem(limits) == nil)
        #expect(RequestTargetTests.inspect("/a%00").problem(limits)?.status == 400)
        let long = RequestTargetTests.inspect("/" + String(repeating: "a", count: 20)).problem(limits)
        #expect(long?.status == 414)
        #expect(long?.detail == "the request target (path and query) is 21 bytes; at most 20 are allowed")
        let many = RequestTargetTests.inspect("/a?x&y&z").problem(limits)
        #expect(many?.status == 414)
        #expect(many?.detail == "the query has 3 parameters; at most 2 are allowed")
    }

    @Test func aRawNULShowsAsATargetShorterThanTheRequestLineHeldIt() {
        // As libmicrohttpd leaves the request line: the target, its NUL-cut end, then the version after a NUL.
        let line = Array("/a".utf8) + [0] + Array("zz".utf8) + [0] + Array("HTTP/1.1".utf8) + [0]
        line.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: line.count) { start in
                let version = start + 6
                #expect(RequestTarget.heldRawNUL(url: start, version: version, targetLength: 2))
                #expect(!RequestTarget.heldRawNUL(url: start, version: version, targetLength: 5))
                #expect(!RequestTarget.heldRawNUL(url: version, version: start, targetLength: 2), "pointers out of order are not judged")
            }
        }
    }
}
