import Crypto
import Foundation

/// The record names of an app's objects: upper-case UUIDs, as Core Data gives them, derived from
/// the container, the object's root entity and the name the row gives it, so that the same seed
/// names its objects alike on every machine and a second import finds them.
enum CoreDataRecordNames {
    /// What the parts of a name's hash are separated by.
    private static let separator: [UInt8] = [0]
    private static let digits = Array("0123456789ABCDEF".utf8)

    /// The record name of the object `name` names; a name that is an upper-case UUID already (a
    /// record Core Data or an export named) is kept.
    static func name(_ name: String, root: String, container: String) -> String {
        if isRecordName(name) { return name }
        var hash = SHA256()
        func add(_ part: String) {
            var part = part
            part.withUTF8 { hash.update(bufferPointer: UnsafeRawBufferPointer($0)) }
            hash.update(data: separator)
        }
        add(container)
        add(root)
        add(name)
        return hash.finalize().withUnsafeBytes { digest in
            // A name-based UUID (version 5's layout), written as Foundation writes one.
            String(unsafeUninitializedCapacity: 36) { text in
                var offset = 0
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[offset] = UInt8(ascii: "-")
                        offset += 1
                    }
                    var byte = digest[index]
                    if index == 6 { byte = byte & 0x0f | 0x50 }
                    if index == 8 { byte = byte & 0x3f | 0x80 }
                    text[offset] = digits[Int(byte >> 4)]
                    text[offset + 1] = digits[Int(byte & 0x0f)]
                    offset += 2
                }
                return 36
            }
        }
    }

    /// Whether `name` is an upper-case UUID: `8C0D3E3A-2B6F-4E41-9D0A-3C5B1F2E7A10`.
    static func isRecordName(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            guard bytes.count == 36 else { return false }
            for (offset, byte) in bytes.enumerated() {
                if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                    guard byte == UInt8(ascii: "-") else { return false }
                } else {
                    guard
                        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
                    else { return false }
                }
            }
            return true
        }
    }
}
