import CloudSeedCore

/// Finds where a run of plain bytes ends, eight bytes at a time: the scanner's inner loop over a
/// cell's bytes, which otherwise looks at them one by one.
///
/// A byte is plain unless it is one of four stop bytes (the delimiter, a quote, a line break). A
/// word's stop bytes are found with the zero-byte test on the word XORed with each stop byte
/// repeated (``WordScan/below(_:_:)``).
package enum PlainByteRun {
    /// The offset of the first stop byte at or after `start` in `bytes`, or of the first byte of
    /// the last, partial word where there is none before it: the caller looks at the rest one
    /// byte at a time. `isASCII` turns `false` where a byte before that offset is past 0x7F.
    @inline(__always)
    package static func end(
        in bytes: UnsafeBufferPointer<UInt8>, from start: Int, stoppingAt stops: (UInt8, UInt8, UInt8, UInt8),
        isASCII: inout Bool
    ) -> Int {
        let ones = WordScan.ones
        let a = UInt64(stops.0) &* ones
        let b = UInt64(stops.1) &* ones
        let c = UInt64(stops.2) &* ones
        let d = UInt64(stops.3) &* ones
        return WordScan.end(in: bytes, from: start, isASCII: &isASCII) { word in
            WordScan.below(word ^ a, ones) | WordScan.below(word ^ b, ones) | WordScan.below(word ^ c, ones)
                | WordScan.below(word ^ d, ones)
        }
    }
}
