import CloudSeedCore

/// Finds the first byte of interest in a run of bytes eight bytes at a time: the inner loop of the
/// CSV scanner's cells (``PlainByteRun``) and of the JSON parser's strings (``JSONStringRun``),
/// which otherwise look at their bytes one by one.
///
/// A caller's `marks` sets the high bit of each byte of interest in a word, and may set it on a
/// byte above (later than) a marked one too, never below the lowest: the zero-byte test
/// ``below(_:_:)`` has that property, so the lowest mark is the first byte of interest.
package enum WordScan {
    package static let ones: UInt64 = 0x0101_0101_0101_0101
    package static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The offset of the first byte at or after `start` in `bytes` that `marks` marks, or of the
    /// first byte of the last, partial word where none is marked before it: the caller looks at the
    /// rest one byte at a time. `isASCII` turns `false` where a byte before that offset is past 0x7F.
    @inline(__always)
    package static func end(
        in bytes: UnsafeBufferPointer<UInt8>, from start: Int, isASCII: inout Bool, marks: (UInt64) -> UInt64
    ) -> Int {
        guard let base = bytes.baseAddress else { return start }
        var offset = start
        var high: UInt64 = 0
        while offset + 8 <= bytes.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
            let marked = marks(word)
            if marked != 0 {
                let stop = marked.trailingZeroBitCount / 8
                // The high bits of the bytes before the stop byte.
                high |= word & highBits & ((1 << UInt64(stop * 8)) &- 1)
                offset += stop
                break
            }
            high |= word & highBits
            offset += 8
        }
        if high != 0 { isASCII = false }
        return offset
    }

    /// Marks the bytes of `value` below the byte repeated in `limit` (at most 0x80): with
    /// ``ones``, the bytes that are zero, so `below(word ^ repeated, ones)` marks a byte's copies.
    @inline(__always)
    package static func below(_ value: UInt64, _ limit: UInt64) -> UInt64 {
        (value &- limit) & ~value & highBits
    }
}
