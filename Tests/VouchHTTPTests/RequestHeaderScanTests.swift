import Testing
@testable import VouchHTTP
import VouchTestSupport

/// How the server judges a request's framing and head from its header lines (RFC 9112 §6.3 and §3.2).
@Suite struct RequestHeaderScanTests {
    static let limits = RequestLimits()

    static func problem(_ scan: RequestHeaderScan, version: String = "HTTP/1.1", headerBytes: Int = 200) -> Problem? {
        scan.problem(version: version, headerBytes: headerBytes, limits: limits)
    }

    @Test func aPlainRequestPasses() {
        #expect(RequestHeaderScanTests.problem(RequestHeaderScan(hostLines: 1)) == nil)
        #expect(RequestHeaderScanTests.problem(RequestHeaderScan(contentLengthLines: 1, contentLength: 5, hostLines: 1)) == nil)
        #expect(RequestHeaderScanTests.problem(RequestHeaderScan(hostLines: 1, transferEncodings: ["Chunked"])) == nil)
        #expect(RequestHeaderScanTests.problem(RequestHeaderScan(), version: "HTTP/1.0") == nil, "HTTP/1.0 needs no Host")
    }

    @Test(arguments: [
        (RequestHeaderScan(contentLengthLines: 1, hostLines: 1, transferEncodings: ["chunked"]), 400, "both Content-Length and Transfer-Encoding"),
        (RequestHeaderScan(contentLengthLines: 2, hostLines: 1), 400, "2 Content-Length headers"),
        (RequestHeaderScan(hostLines: 1, transferEncodings: ["gzip"]), 501, "'gzip' is not supported; only chunked is"),
        (RequestHeaderScan(hostLines: 1, transferEncodings: ["gzip, chunked"]), 501, "'gzip' is not supported"),
        (RequestHeaderScan(hostLines: 1, transferEncodings: ["chunked", "chunked"]), 400, "chunked may be applied once"),
        (RequestHeaderScan(hostLines: 1, transferEncodings: [""]), 400, "the only value allowed is chunked"),
        (RequestHeaderScan(hostLines: 1, transferEncodings: [" chunked"]), 400, "the only value allowed is chunked"),
        (RequestHeaderScan(hostLines: 1, transferEncodings: ["chunked "]), 400, "Transfer-Encoding is 'chunked '"),
        (RequestHeaderScan(hostLines: 1, transferEncodings: ["chunked\t"]), 400, "Transfer-Encoding is 'chunked\\u{9}'"),
        (RequestHeaderScan(hostLines: 1, transferEncodings: ["chunked,"]), 400, "the only value allowed is chunked"),
        (RequestHeaderScan(hostLines: 1, transferEncodings: [",,chunked"]), 400, "the only value allowed is chunked"),
        (RequestHeaderScan(hostLines: 1, transferEncodings: ["chunked, chunked"]), 400, "chunked may be applied once"),
        (RequestHeaderScan(hostLines: 1, transferEncodings: ["identity"]), 501, "'identity' is not supported"),
        (RequestHeaderScan(hostLines: 1, transferEncodings: ["chunked, gzip"]), 501, "'gzip' is not supported"),
        (RequestHeaderScan(hostLines: 1, transferEncodings: ["chun\u{212A}ed"]), 501, "'chun\u{212A}ed' is not supported"),
        (RequestHeaderScan(hostLines: 1, malformedName: "Content-Length "), 400, "'Content-Length ' holds whitespace"),
        (RequestHeaderScan(hostLines: 1, malformedName: ""), 400, "no field name before its colon"),
        (RequestHeaderScan(), 400, "an HTTP/1.1 request needs a Host header"),
        (RequestHeaderScan(hostLines: 2), 400, "2 Host headers"),
    ] as [(RequestHeaderScan, Int, String)])
    func refusesAmbiguousFramingAndAMissingHost(scan: RequestHeaderScan, status: Int, detail: String) {
        let problem = RequestHeaderScanTests.problem(scan)
        #expect(problem?.status == status)
        #expect(problem?.detail.contains(detail) == true, "\(problem?.detail ?? "no problem")")
    }

    @Test func chunkedIsNotPartOfHTTP10AndHeadsOverTheLimitAre431() {
        #expect(RequestHeaderScanTests.problem(RequestHeaderScan(hostLines: 1, transferEncodings: ["chunked"]), version: "HTTP/1.0")?.status == 400)
        let large = RequestHeaderScanTests.problem(RequestHeaderScan(hostLines: 1), headerBytes: 16 * 1_024 + 1)
        #expect(large?.status == 431)
        #expect(large?.detail == "the request line and headers are 16385 bytes; at most 16384 are allowed (http.max_header_bytes)")
        #expect(RequestHeaderScanTests.problem(RequestHeaderScan(hostLines: 1), headerBytes: 16 * 1_024) == nil)
    }

    @Test func namesMatchWithoutRegardToCase() {
        let names = RequestHeaderScan.Names(["Authorization", "content-type"])
        var scan = RequestHeaderScan()
        let received = ReceivedHeaders(names: names)
        let headers = HeaderLines.read([("AUTHORIZATION", "Bearer a"), ("Content-Length", "12"), ("authorization", "Bearer b"), ("HOST", "x"),
                              ("Transfer-encoding", "chunked"), ("X-Other", "y")], names: names, into: &scan, received) { HeaderLines.copied(received) }
        #expect(headers == ["authorization": "Bearer a"], "the first of repeated headers, and only the collected names")
        #expect(scan.contentLengthLines == 1 && scan.contentLength == 12)
        #expect(scan.hostLines == 1)
        #expect(scan.transferEncodings == ["chunked"])
        #expect(scan.expectsBody)
    }

    @Test func namesOfTheSameLengthAreToldApartAndLongerOnesIgnored() {
        let names = RequestHeaderScan.Names(["content-type", "X-Request-Id", "origin", "Origin", "if-none-match"])
        #expect(names.keys == ["content-type", "x-request-id", "origin", "if-none-match"], "lowercased, each once")
        var scan = RequestHeaderScan()
        let received = ReceivedHeaders(names: names)
        let headers = HeaderLines.read([("X-REQUEST-ID", "r1"), ("Content-Type", "application/json"), ("x-request-id", "r2"), ("Origins", "o0"),
                              ("A-Header-Name-Longer-Than-Any-Collected", "z"), ("", "empty"), ("ORIGIN", "o1"), ("If-None-Match", "\"e\"")], names: names, into: &scan, received) { HeaderLines.copied(received) }
        #expect(headers == ["x-request-id": "r1", "content-type": "application/json", "origin": "o1", "if-none-match": "\"e\""])
    }

    /// Eight bytes at a time or one by one, a name matches exactly when ASCII lowercasing makes the bytes equal:
    /// every byte against every kind of byte a name can hold, at a place in the word part and in the tail.
    @Test func namesMatchAsASCIILowercasingSays() {
        func lowered(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
        for stored in Array("az09-_.~^`".utf8) {
            for (prefix, suffix) in [("", ""), ("x-", "-abcdefgh"), ("x-abcdefg", "")] {
                let name = prefix + String(decoding: [stored], as: UTF8.self) + suffix
                let names = RequestHeaderScan.Names([name])
                for received in UInt8.min...UInt8.max where received != 0 {
                    let bytes = Array(prefix.uppercased().utf8) + [received] + Array(suffix.utf8)
                    let found = bytes.withUnsafeBytes { names.find($0).key } == 0
                    #expect(found == (lowered(received) == stored), "\(name) against byte \(received)")
                }
            }
        }
    }

    /// The same at every length up to twenty and every place in the name: the words of eight bytes, the last eight
    /// that overlap them, the two words of four bytes of a shorter name, and single bytes below four.
    @Test func namesMatchAtEveryLengthAndPlace() {
        func lowered(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
        let letters = Array("abcdefghijklmnopqrst".utf8)
        for length in 1...letters.count {
            for place in 0..<length {
                for stored in Array("a0-^".utf8) {
                    var name = Array(letters[0..<length])
                    name[place] = stored
                    let names = RequestHeaderScan.Names([String(decoding: name, as: UTF8.self)])
                    for received in UInt8.min...UInt8.max where received != 0 {
                        var bytes = name.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
                        bytes[place] = received
                        let found = bytes.withUnsafeBytes { names.find($0).key } == 0
                        #expect(found == (lowered(received) == stored), "length \(length), place \(place), \(stored) against byte \(received)")
                    }
                }
            }
        }
    }

    @Test func namesSharingABucketAreToldApart() {
        // Same length and first letter (and "a" and "A" share the low five bits): one chain, compared in full.
        let names = RequestHeaderScan.Names(["x-aaa", "x-bbb", "x-aab", "y-aaa"])
        var scan = RequestHeaderScan()
        let received = ReceivedHeaders(names: names)
        let headers = HeaderLines.read([("X-AAB", "3"), ("x-bbb", "2"), ("x-aac", "no"), ("X-aaa", "1"), ("Y-AAA", "4"), ("x-aa", "no")], names: names, into: &scan, received) { HeaderLines.copied(received) }
        #expect(headers == ["x-aaa": "1", "x-bbb": "2", "x-aab": "3", "y-aaa": "4"])
        #expect(scan.hostLines == 0 && scan.contentLengthLines == 0)
    }

    /// Every byte from 0x00 to 0x20 and from 0x7F to 0xFF at every place of names from 1 to 20 bytes: found by the
    /// eight-byte words and by the tail; no other byte is taken for one.
    @Test func aSpaceControlOrNonASCIIByteAnywhereInANameIsFound() {
        for length in 1...20 {
            for place in 0..<length {
                for byte in UInt8.min...UInt8.max {
                    var name = Array(repeating: UInt8(ascii: "a"), count: length)
                    name[place] = byte
                    let found = name.withUnsafeBytes { RequestHeaderScan.holdsSpaceControlOrNonASCII($0) }
                    #expect(found == (byte <= 0x20 || byte >= 0x7F), "length \(length), place \(place), byte \(byte)")
                }
            }
        }
    }

    @Test func aNameWithASpaceIsRecordedButNotTakenForTheNameItResembles() {
        let names = RequestHeaderScan.Names(["content-type"])
        var scan = RequestHeaderScan()
        let received = ReceivedHeaders(names: names)
        _ = HeaderLines.read([("Host", "x"), ("Content-Length ", "2"), ("Transfer-Encoding\t", "chunked"), ("X-Fine", "1")], names: names,
                             into: &scan, received) { HeaderLines.copied(received) }
        #expect(scan.contentLengthLines == 0 && scan.transferEncodings.isEmpty)
        #expect(scan.malformedName == "Content-Length " && scan.malformedNameLines == 2)
        #expect(RequestHeaderScanTests.problem(scan)?.detail.contains("(and 1 more lines)") == true)
    }

    @Test(arguments: [("0", 0), ("12", 12), ("00042", 42), ("9223372036854775807", Int.max)] as [(String, Int)])
    func contentLengthDigitsAreANumber(text: String, number: Int) {
        #expect(Array(text.utf8).withUnsafeBytes { RequestHeaderScan.decimal($0) } == number)
    }

    @Test(arguments: ["", "+5", "-5", " 5", "5 ", "1e3", "0x10", "9223372036854775808", "99999999999999999999"])
    func anythingElseIsNoNumber(text: String) {
        #expect(Array(text.utf8).withUnsafeBytes { RequestHeaderScan.decimal($0) } == nil)
    }
}
