/// Checks that bytes are UTF-8, and finds where they stop being so.
package enum UTF8Validation {
    /// The text of `bytes[range]`, or `nil` where they are not UTF-8: checked by ``isValid(_:)``
    /// and then decoded, rather than by `String(validating:)`, whose generic checking looks its
    /// types up at run time for every call (a cell, a JSON string).
    package static func string(_ bytes: [UInt8], _ range: Range<Int>) -> String? {
        bytes.withUnsafeBufferPointer { all in
            let slice = UnsafeBufferPointer(rebasing: all[range])
            return isValid(slice) ? String(decoding: slice, as: UTF8.self) : nil
        }
    }

    /// Whether `bytes` are all ASCII (and so UTF-8, and a text in every normalisation form); eight at a time.
    package static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var offset = 0
        var high: UInt64 = 0
        while offset + 8 <= bytes.count {
            high |= UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
            offset += 8
        }
        while offset < bytes.count {
            high |= UInt64(base[offset])
            offset += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }

    /// Whether `bytes` are well-formed UTF-8.
    package static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { firstInvalidOffset(bytes) == nil }

    /// The offset of the first byte that does not begin a valid UTF-8 sequence, or `nil`.
    package static func firstInvalidOffset(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer(firstInvalidOffset)
    }

    /// The offset of the first byte that does not begin a well-formed UTF-8 sequence (RFC 3629: no
    /// overlong forms, surrogates or code points past U+10FFFF), or `nil`; eight ASCII bytes at a
    /// time where it can.
    package static func firstInvalidOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var offset = 0
        while offset < count {
            if offset + 8 <= count,
                UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                offset += 8
                continue
            }
            let lead = base[offset]
            if lead < 0x80 {
                offset += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                high = 0x9F
            case 0xF0:
                length = 4
                low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                high = 0x8F
            default: return offset
            }
            guard offset + length <= count, (low...high).contains(base[offset + 1]) else { return offset }
            for next in 2..<length where base[offset + next] & 0xC0 != 0x80 { return offset }
            offset += length
        }
        return nil
    }
}
