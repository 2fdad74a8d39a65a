import Crypto
import Foundation

/// Builds record names that CloudKit accepts: 1–255 ASCII characters, not starting with `_`.
enum RecordNaming {
    /// Column names that hold record names, in order of preference.
    static let nameColumns = ["recordName", "___recordID", "recordID", "id", "_id", "uuid"]
    private static let loweredNameColumns = nameColumns.map { $0.lowercased() }
    /// The position of `key` in ``nameColumns`` (case-insensitive), or `nil`.
    static func nameColumnRank(of key: String) -> Int? {
        loweredNameColumns.firstIndex { CaseInsensitiveNames.matches(key, $0) }
    }

    /// Name columns that are the record's identity only, and so are not kept as fields.
    static let identityOnlyColumns: Set<String> = ["recordName", "___recordID", "recordID", "recordChangeTag"]

    /// The record name for `text`: transliterated to ASCII (`Zoë Müller` → `Zoe Muller`), or a
    /// deterministic hash where nothing of it is ASCII, so names stay stable across runs.
    static func recordName(from text: String) -> String {
        var ascii = Transliteration.ascii(text)
        // The text is ASCII now: a space or a tab is the white space that can start or end it.
        if let first = ascii.utf8.first, let last = ascii.utf8.last, Self.isBlank(first) || Self.isBlank(last) {
            ascii = ascii.trimmingCharacters(in: .whitespaces)
        }
        if !ascii.isEmpty, ascii.utf8.count <= 255, !ascii.hasPrefix("_") { return ascii }
        let digest = SHA256.hexDigest(of: Data(text.utf8))
        if ascii.isEmpty { return "r-" + digest.prefix(16) }
        let kept = ascii.drop { $0 == "_" }
        return String(kept.prefix(200)) + "-" + digest.prefix(16)
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || (0x0A...0x0D).contains(byte)
    }
}
