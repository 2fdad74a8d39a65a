/// A cell of CSV as RFC 4180 writes it, for the exports and the stores that write CSV lines from
/// their columns.
package enum CSVCell {
    /// Appends one cell: in quotes, quotes doubled, when it holds a comma, a quote, a line break or
    /// spaces at either end; `""` for a field set to the empty string.
    package static func append<Text: Collection<UInt8>>(_ text: Text, setButEmpty: Bool, to line: inout [UInt8]) {
        let appended: Void? = text.withContiguousStorageIfAvailable {
            append(bytes: $0, setButEmpty: setButEmpty, to: &line)
        }
        if appended == nil {
            Array(text).withUnsafeBufferPointer { append(bytes: $0, setButEmpty: setButEmpty, to: &line) }
        }
    }

    private static func append(bytes: UnsafeBufferPointer<UInt8>, setButEmpty: Bool, to line: inout [UInt8]) {
        guard let first = bytes.first, let last = bytes.last else {
            if setButEmpty { line += [UInt8(ascii: "\""), UInt8(ascii: "\"")] }
            return
        }
        guard first == UInt8(ascii: " ") || last == UInt8(ascii: " ") || holdsQuotedByte(bytes) else {
            return line.append(contentsOf: bytes)
        }
        line.append(UInt8(ascii: "\""))
        // The text between quotes goes in a run at a time, each quote in it followed by a second.
        var runStart = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\"") {
            line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...index]))
            line.append(UInt8(ascii: "\""))
            runStart = index + 1
        }
        line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        line.append(UInt8(ascii: "\""))
    }

    /// Whether `bytes` hold a comma, a quote, a line feed or a carriage return: eight bytes at a time,
    /// each word tested for a zero byte after those four bytes are subtracted out (XOR).
    private static func holdsQuotedByte(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let base = UnsafeRawPointer(bytes.baseAddress!)
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            if hasZeroByte(word ^ commas) || hasZeroByte(word ^ quotes) || hasZeroByte(word ^ lineFeeds)
                || hasZeroByte(word ^ returns)
            {
                return true
            }
            offset += 8
        }
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: ","), UInt8(ascii: "\""), UInt8(ascii: "\n"), UInt8(ascii: "\r"): return true
            default: offset += 1
            }
        }
        return false
    }

    private static let commas = repeated(UInt8(ascii: ","))
    private static let quotes = repeated(UInt8(ascii: "\""))
    private static let lineFeeds = repeated(UInt8(ascii: "\n"))
    private static let returns = repeated(UInt8(ascii: "\r"))

    private static func repeated(_ byte: UInt8) -> UInt64 { UInt64(byte) &* 0x0101_0101_0101_0101 }

    /// Whether one of the word's eight bytes is zero (exact: a borrow can only mark bytes above a zero one).
    @inline(__always)
    private static func hasZeroByte(_ word: UInt64) -> Bool {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0
    }
}
