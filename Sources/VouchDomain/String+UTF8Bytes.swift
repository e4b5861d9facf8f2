extension String {
    /// Calls `body` with the string's UTF-8 bytes, without copying them when the storage is contiguous (native
    /// Strings, small or not, always are), so hashing a key on the evaluation path allocates nothing.
    @inline(__always)
    func withUTF8Bytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) { return result }
        return Array(utf8).withUnsafeBytes(body)
    }
}
