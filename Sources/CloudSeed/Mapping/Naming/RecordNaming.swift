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

    /// How `key`, whose rank among ``nameColumns`` is `rank`, names a record of `type`: as that
    /// name column, else as the type's own id (`CustomerID` of a Customer, `order_id` of an Order),
    /// ranked after them and called by its key; `nil` where it names nothing.
    static func nameColumnRole(rank: Int?, key: String, of type: String) -> (rank: Int, name: String)? {
        if let rank { return (rank, nameColumns[rank]) }
        return isOwnID(key, of: type) ? (nameColumns.count, key) : nil
    }

    /// Whether `key` is the type's name and `ID`, `Id`, `id` or `_id` (in any case).
    private static func isOwnID(_ key: String, of type: String) -> Bool {
        let extra = key.utf8.count - type.utf8.count
        guard extra == 2 || extra == 3 else { return false }
        let suffix = key.utf8.suffix(extra)
        guard
            suffix.elementsEqual("id".utf8, by: { $0 | 0x20 == $1 })
                || suffix.elementsEqual("_id".utf8, by: { $0 | 0x20 == $1 })
        else { return false }
        return key.utf8.prefix(type.utf8.count).elementsEqual(type.utf8) { $0 | 0x20 == $1 | 0x20 }
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
