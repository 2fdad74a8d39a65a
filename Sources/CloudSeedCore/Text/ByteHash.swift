/// A fast hash of bytes, seeded once per process: what finds texts again by their bytes
/// (``ByteKeyedValues``) and tells record names apart (``Fingerprint``), where the standard
/// library's `Hasher` (SipHash) cost more than the lookups it served, for every row.
///
/// The count of bytes is mixed into the seed, then eight bytes at a time with a multiplication (the
/// last few as one word), and the result goes through MurmurHash3's finaliser, so that every input
/// bit moves every output bit.
/// It is not meant to resist crafted collisions: its users treat a collision as a miss (the text
/// is looked up the usual way) or, for fingerprints, need two 64-bit lanes to collide at once.
@usableFromInline package enum ByteHash {
    /// The seeds of the process: drawn once, so that hashes compare within one process only.
    private static let seeds = (UInt64.random(in: .min ... .max), UInt64.random(in: .min ... .max))

    /// The hash of `bytes` in the first lane.
    @inline(__always)
    @usableFromInline package static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        hash(bytes, seed: seeds.0, multiplier: 0x9E37_79B9_7F4A_7C15)
    }

    /// Two hashes of `bytes` from independent lanes: 128 bits to tell texts apart.
    package static func wideHash(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        (
            hash(bytes, seed: seeds.0, multiplier: 0x9E37_79B9_7F4A_7C15),
            hash(bytes, seed: seeds.1, multiplier: 0xC2B2_AE3D_27D4_EB4F)
        )
    }

    @inline(__always)
    private static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64, multiplier: UInt64) -> UInt64 {
        var state = seed ^ UInt64(truncatingIfNeeded: bytes.count) &* multiplier
        var offset = 0
        if let base = bytes.baseAddress {
            while offset + 8 <= bytes.count {
                let word = UInt64(littleEndian: (base + offset).loadUnaligned(as: UInt64.self))
                state = (state ^ word) &* multiplier
                state ^= state >> 29
                offset += 8
            }
            var tail: UInt64 = 0
            for index in offset..<bytes.count {
                tail |= UInt64(base.load(fromByteOffset: index, as: UInt8.self)) << UInt64((index - offset) * 8)
            }
            state = (state ^ tail) &* multiplier
        }
        return finalised(state)
    }

    /// MurmurHash3's 64-bit finaliser.
    @inline(__always)
    private static func finalised(_ value: UInt64) -> UInt64 {
        var value = value
        value ^= value >> 33
        value &*= 0xFF51_AFD7_ED55_8CCD
        value ^= value >> 33
        value &*= 0xC4CE_B9FE_1A85_EC53
        value ^= value >> 33
        return value
    }
}
