/// Finds where a run of plain bytes inside a JSON string ends, eight bytes at a time: the parser's
/// inner loop over a string's bytes, which otherwise looks at them one by one.
///
/// A byte is plain unless it is a quote, a backslash or a control character (below 0x20, which a
/// string must escape). A word's quotes and backslashes are found with the zero-byte test on the
/// word XORed with each repeated, `(v - 0x01…) & ~v & 0x80…`, and its control characters with the
/// same test against 0x20, `(v - 0x20…) & ~v & 0x80…`: each may mark a byte above a marked one too,
/// never one below the lowest, so the lowest mark is the first byte that ends the run.
enum JSONStringRun {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080
    private static let quotes = UInt64(UInt8(ascii: "\"")) &* ones
    private static let backslashes = UInt64(UInt8(ascii: "\\")) &* ones
    private static let spaces = UInt64(0x20) &* ones

    /// The offset of the first byte at or after `start` in `bytes` that ends the run, or of the
    /// first byte of the last, partial word where none does before it: the caller looks at the rest
    /// one byte at a time. `isASCII` turns `false` where a byte before that offset is past 0x7F.
    @inline(__always)
    static func end(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, isASCII: inout Bool) -> Int {
        guard let base = bytes.baseAddress else { return start }
        var offset = start
        var high: UInt64 = 0
        while offset + 8 <= bytes.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
            let marks = below(word ^ quotes, ones) | below(word ^ backslashes, ones) | below(word, spaces)
            if marks != 0 {
                let stop = marks.trailingZeroBitCount / 8
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

    /// Marks the bytes of `value` below the byte repeated in `limit` (at most 0x80).
    @inline(__always)
    private static func below(_ value: UInt64, _ limit: UInt64) -> UInt64 {
        (value &- limit) & ~value & highBits
    }
}
