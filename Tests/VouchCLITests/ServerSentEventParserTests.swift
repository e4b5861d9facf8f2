import Testing
@testable import VouchCLI

/// The event-stream reader behind `vouch eval --watch`, fed the way a network delivers: cut anywhere.
@Suite struct ServerSentEventParserTests {
    static let stream = ": open\n\n: keep-alive\n\nid: 42\nevent: message\ndata: {\"type\":\"refetchEvaluation\",\"etag\":\"\\\"flags-42\\\"\"}\n\n"
    static let expected: [ServerSentEventParser.Item] = [
        .comment("open"), .comment("keep-alive"),
        .event(id: "42", type: "message", data: #"{"type":"refetchEvaluation","etag":"\"flags-42\""}"#),
    ]

    @Test(arguments: [1, 2, 3, 7, 64, 1_000])
    func readsTheSameItemsWhereverTheChunksAreCut(chunkSize: Int) {
        var parser = ServerSentEventParser()
        let bytes = Array(Self.stream.utf8)
        var items: [ServerSentEventParser.Item] = []
        for start in stride(from: 0, to: bytes.count, by: chunkSize) {
            items += parser.feed(Array(bytes[start..<min(start + chunkSize, bytes.count)]))
        }
        #expect(items == Self.expected)
    }

    @Test func joinsDataLinesReadsCarriageReturnsAndDefaultsTheTypeToMessage() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Array("data: a\r\ndata:b\r\n\r\n".utf8)) == [.event(id: nil, type: "message", data: "a\nb")])
    }

    @Test func anEventWithoutDataIsNoEventAndAnUnfinishedOneWaits() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Array("event: message\n\nid: 7\ndata: x".utf8)).isEmpty)
        #expect(parser.feed(Array("\n\n".utf8)) == [.event(id: "7", type: "message", data: "x")])
    }
}
