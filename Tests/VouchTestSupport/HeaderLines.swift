/// Header lines as libmicrohttpd would hold them for a test: every name and value in one piece of memory that stays
/// where it is until `read` returns, since the server's header scan keeps pointers into it as it keeps them into
/// libmicrohttpd's memory for a real request.
public enum HeaderLines {
    /// Lays `lines` out in one piece of memory, hands each name and value to `add` in order (a test passes them to the
    /// server's own scan), then calls `body` while their bytes are still there.
    public static func read<Result>(_ lines: [(String, String)], each add: (_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) -> Void,
                                    _ body: () throws -> Result) rethrows -> Result {
        let total = lines.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count }
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, total), alignment: 1)
        defer { memory.deallocate() }
        var offset = 0
        for (name, value) in lines {
            let nameBytes = Array(name.utf8), valueBytes = Array(value.utf8)
            memory.baseAddress!.advanced(by: offset).copyMemory(from: nameBytes, byteCount: nameBytes.count)
            let nameRange = UnsafeRawBufferPointer(start: memory.baseAddress! + offset, count: nameBytes.count)
            offset += nameBytes.count
            memory.baseAddress!.advanced(by: offset).copyMemory(from: valueBytes, byteCount: valueBytes.count)
            let valueRange = UnsafeRawBufferPointer(start: memory.baseAddress! + offset, count: valueBytes.count)
            offset += valueBytes.count
            add(nameRange, valueRange)
        }
        return try body()
    }
}
