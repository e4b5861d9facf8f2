import VouchDomain

/// A seeded 64-bit hash of bytes for choosing a place in a small in-memory cache: the snapshot's `KeyHash` with a
/// seed drawn once per instance, which keeps which inputs share a place unknown outside the process.
///
/// For places only, never for deciding equality: every cache that uses it compares the bytes themselves.
struct PlaceHash: Sendable {
    private let seed: UInt64

    init(seed: UInt64 = UInt64.random(in: .min ... .max)) {
        self.seed = seed
    }

    func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        KeyHash.hash(bytes, seed: seed)
    }
}
