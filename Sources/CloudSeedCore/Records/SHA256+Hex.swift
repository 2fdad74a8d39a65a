package import Crypto
package import Foundation

extension SHA256 {
    /// The lower-case hexadecimal SHA-256 of `data`, as asset checksums, backup manifests and
    /// hashed names write it.
    package static func hexDigest(of data: some DataProtocol) -> String {
        hex(hash(data: data))
    }

    /// Finishes the hash, as lower-case hexadecimal.
    package mutating func finalizeHex() -> String {
        Self.hex(finalize())
    }

    private static func hex(_ digest: SHA256Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: SHA256Digest.byteCount * 2) { text in
            for (offset, byte) in digest.enumerated() {
                text[offset * 2] = digits[Int(byte >> 4)]
                text[offset * 2 + 1] = digits[Int(byte & 0x0f)]
            }
            return SHA256Digest.byteCount * 2
        }
    }
}
