#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Texts found again by their exact UTF-8 bytes, without making a `String`: hashing a string as
/// `Set<String>` does normalises any text that is not ASCII, which costs more than hashing its
/// bytes. Only equal bytes match, so a text not found may still equal one kept (the same text
/// in another normalisation form): a miss is to be looked up the usual way.
struct ByteKeyedTexts {
    /// The bytes of each text kept, by their hash; a text whose hash another has is not kept.
    private var bytesByHash: [Int: [UInt8]] = [:]

    /// Whether a text of exactly these bytes was kept.
    func contains(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let kept = bytesByHash[Self.hash(bytes)], kept.count == bytes.count else { return false }
        return kept.withUnsafeBufferPointer { kept in bytes.isEmpty || memcmp(kept.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
    }

    /// Keeps a text's bytes, unless another text's bytes have the same hash.
    mutating func insert(_ bytes: UnsafeBufferPointer<UInt8>) {
        let hash = Self.hash(bytes)
        if bytesByHash[hash] == nil { bytesByHash[hash] = Array(bytes) }
    }

    mutating func removeAll() {
        bytesByHash = [:]
    }

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        return hasher.finalize()
    }
}
