/// Finds where a run of plain bytes ends, eight bytes at a time: the scanner's inner loop over a
/// cell's bytes, which otherwise looks at them one by one.
///
/// A byte is plain unless it is one of four stop bytes (the delimiter, a quote, a line break). A
/// word's stop bytes are found with the zero-byte test on the word XORed with each stop byte
/// repeated: `(v - 0x01…) & ~v & 0x80…` marks every zero byte of `v`, and may mark a byte above a
/// zero byte too, never one below the lowest, so the lowest mark is the first stop byte.
enum PlainByteRun {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The offset of the first stop byte at or after `start` in `bytes`, or of the first byte of
    /// the last, partial word where there is none before it: the caller looks at the rest one
    /// byte at a time. `isASCII` turns `false` where a byte before that offset is past 0x7F.
    @inline(__always)
    static func end(
        in bytes: UnsafeBufferPointer<UInt8>, from start: Int, stoppingAt stops: (UInt8, UInt8, UInt8, UInt8), isASCII: inout Bool
    ) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let a = UInt64(stops.0) &* ones, b = UInt64(stops.1) &* ones, c = UInt64(stops.2) &* ones, d = UInt64(stops.3) &* ones
        var offset = start
        var high: UInt64 = 0
        while offset + 8 <= bytes.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
            let marks = zeroBytes(word ^ a) | zeroBytes(word ^ b) | zeroBytes(word ^ c) | zeroBytes(word ^ d)
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

    @inline(__always)
    private static func zeroBytes(_ value: UInt64) -> UInt64 {
        (value &- ones) & ~value & highBits
    }
}
