/// Reads a `text/event-stream` body as it arrives, in chunks cut anywhere, into comments and events
/// (the HTML standard's "Server-sent events": `field: value` lines, a blank line ends an event).
struct ServerSentEventParser {
    enum Item: Equatable {
        /// A line starting with a colon, such as `: open` or `: keep-alive`, without the colon and one space.
        case comment(String)
        /// `type` is the `event` field ("message" when absent); `data` joins the event's `data` lines with line breaks.
        case event(id: String?, type: String, data: String)
    }

    private var pending: [UInt8] = []
    private var id: String?
    private var type: String?
    private var dataLines: [String] = []

    /// Takes the next chunk and returns what it completed; an unfinished line waits for the next chunk.
    mutating func feed(_ chunk: [UInt8]) -> [Item] {
        pending.append(contentsOf: chunk)
        var items: [Item] = []
        var lineStart = 0
        while let newline = pending[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
            var line = pending[lineStart..<newline]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if let item = take(String(decoding: line, as: UTF8.self)) { items.append(item) }
            lineStart = newline + 1
        }
        pending.removeFirst(lineStart)
        return items
    }

    private mutating func take(_ line: String) -> Item? {
        if line.isEmpty {
            defer { type = nil; dataLines = [] }
            // "If the data buffer is an empty string, set the data buffer and the event type buffer to the empty string and return."
            guard !dataLines.isEmpty else { return nil }
            return .event(id: id, type: type ?? "message", data: dataLines.joined(separator: "\n"))
        }
        let (field, value) = ServerSentEventParser.split(line)
        switch field {
        case "": return .comment(value)
        case "event": type = value
        case "data": dataLines.append(value)
        case "id": id = value
        default: break
        }
        return nil
    }

    /// `field: value` with the one space after the colon dropped; a line without a colon is a field with an empty value.
    private static func split(_ line: String) -> (field: String, value: String) {
        guard let colon = line.firstIndex(of: ":") else { return (line, "") }
        var value = line[line.index(after: colon)...]
        if value.first == " " { value = value.dropFirst() }
        return (String(line[..<colon]), String(value))
    }
}
