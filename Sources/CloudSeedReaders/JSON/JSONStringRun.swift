import CloudSeedCore

/// Finds where a run of plain bytes inside a JSON string ends, eight bytes at a time: the parser's
/// inner loop over a string's bytes, which otherwise looks at them one by one.
///
/// A byte is plain unless it is a quote, a backslash or a control character (below 0x20, which a
/// string must escape): the zero-byte test finds the quotes and backslashes of a word XORed with
/// each repeated, and the same test against 0x20 its control characters (``WordScan/below(_:_:)``).
package enum JSONStringRun {
    private static let quotes = UInt64(UInt8(ascii: "\"")) &* WordScan.ones
    private static let backslashes = UInt64(UInt8(ascii: "\\")) &* WordScan.ones
    private static let spaces = UInt64(0x20) &* WordScan.ones

    /// The offset of the first byte at or after `start` in `bytes` that ends the run, or of the
    /// first byte of the last, partial word where none does before it: the caller looks at the rest
    /// one byte at a time. `isASCII` turns `false` where a byte before that offset is past 0x7F.
    @inline(__always)
    package static func end(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, isASCII: inout Bool) -> Int {
        WordScan.end(in: bytes, from: start, isASCII: &isASCII) { word in
            WordScan.below(word ^ quotes, WordScan.ones) | WordScan.below(word ^ backslashes, WordScan.ones)
                | WordScan.below(word, spaces)
        }
    }
}
