extension String {
    /// Calls `body` with the string's UTF-8 bytes, without copying them when the storage is contiguous (native
    /// Strings, small or not, always are), so hashing a key on the evaluation path allocates nothing.
    // Inlinable: called from the other modules on every request, and as a generic call it was not specialized.
    @inlinable
    public func withUTF8Bytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        // The storage in place when it is contiguous: `withUTF8` needs a mutable copy, whose retain and release
        // of a large String's storage are two atomic operations per call.
        if let result = utf8.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) { return result }
        var text = self
        return text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }
}
