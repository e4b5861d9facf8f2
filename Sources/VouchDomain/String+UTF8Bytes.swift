extension String {
    /// Calls `body` with the string's UTF-8 bytes, without copying them when the storage is contiguous (native
    /// Strings, small or not, always are), so hashing a key on the evaluation path allocates nothing.
    @inline(__always)
    public func withUTF8Bytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        // `withUTF8` on a copy: a native String hands out its own storage (a small one, a copy on the stack);
        // `utf8.withContiguousStorageIfAvailable` did the same through several generic calls.
        var text = self
        return text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }
}
