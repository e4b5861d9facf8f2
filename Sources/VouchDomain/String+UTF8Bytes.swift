extension String {
    /// Calls `body` with the string's UTF-8 bytes, without copying them when the storage is contiguous (native
    /// Strings, small or not, always are), so hashing a key on the evaluation path allocates nothing.
    // Inlinable: called from the other modules on every request, and as a generic call it is not specialized.
    @inlinable
    public func withUTF8Bytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        // `withUTF8` on a copy: a native String hands out its own storage (a small one, a copy on the stack).
        // `utf8.withContiguousStorageIfAvailable` saves the copy's retain and release, but wraps the result in an
        // optional, which makes in-process evaluation, whose outcome holds a String, slower.
        var text = self
        return text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }
}
