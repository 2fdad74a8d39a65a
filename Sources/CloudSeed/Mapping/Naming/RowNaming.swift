import Foundation

/// Names a row by its type's rule, the same way in every pass over the sources: the first pass
/// (to choose the rule and find rows that share a name), the index of reference targets, and the
/// pass that writes. No pass keeps the names of the others.
struct RowNaming: Sendable {
    /// Each record type's naming rule.
    var rules: [String: NamingRule]
    /// Drawn once per run: with `--uuid`, every pass gives a row the same random name.
    var randomSeed: UInt64

    /// The name of a top-level row, `rowNumber` counting the rows of its type from 0; `nil` when
    /// a name template names a field the row does not set.
    func name(of row: PreparedRow, rowNumber: Int) -> String? {
        guard let rule = rules[row.recordType] else { return nil }
        return Self.name(of: row, rule: rule, rowNumber: rowNumber, randomSeed: randomSeed)
    }

    static func name(of row: PreparedRow, rule: NamingRule, rowNumber: Int, randomSeed: UInt64) -> String? {
        let pending = pendingName(
            by: rule, ownName: rule.ownName(row.ownName, of: row.recordType),
            naturalKey: { key in row.naturalKeys.first { $0.0 == key }?.1 },
            template: { TemplateNaming.text(of: row, template: $0) })
        return switch pending {
        case .text(let text)?: RecordNaming.recordName(from: text)
        case .random?: randomName(of: row.recordType, rowNumber: rowNumber, seed: randomSeed)
        case .position?: "\(row.recordType)-\(row.ordinal)"
        case nil: nil
        }
    }

    /// A row's name before it is made a record name: a text (a name the source gives, a natural
    /// key's, a filled template), made a record name by transliterating it; a random name, which
    /// needs the row's number among its type's rows; or its position, `Type-N`.
    enum PendingName {
        case text(String)
        case random
        case position
    }

    /// The name `rule` gives a row: the template's, where a template names the type's rows; else
    /// the row's own name, where it has one (``PreparedRow/ownName``); else the rule's, falling back
    /// to its position. `naturalKey` gives the row's text of a natural key, `template` the filled
    /// template, `nil` where the row leaves a field it names unset: the row then has no name.
    static func pendingName(
        by rule: NamingRule, ownName: String?, naturalKey: (String) -> String?, template: (NameTemplate) -> String?
    ) -> PendingName? {
        if case .template(let text) = rule { return template(text).map(PendingName.text) }
        if let ownName { return .text(ownName) }
        switch rule {
        case .uuid: return .random
        case .naturalKey(let key): return naturalKey(key).map(PendingName.text) ?? .position
        case .template, .fromSource, .parent, .column, .qualifiedColumn, .position, .linkedPair: return .position
        }
    }

    /// The name `--uuid` gives the `rowNumber`-th row (from 0) of `type`.
    func randomName(of type: String, rowNumber: Int) -> String {
        Self.randomName(of: type, rowNumber: rowNumber, seed: randomSeed)
    }

    /// A version 4 UUID drawn from `seed`, the type and the row number, written as
    /// `UUID.uuidString` writes one (upper-case, `8-4-4-4-12` digits).
    private static func randomName(of type: String, rowNumber: Int, seed: UInt64) -> String {
        var generator = SeededGenerator(
            seed: seed ^ UInt64(truncatingIfNeeded: type.hashValue) &+ UInt64(rowNumber) &* 0x9E37_79B9_7F4A_7C15)
        return String(unsafeUninitializedCapacity: 36) { text in
            var offset = 0
            for index in 0..<16 {
                var byte = UInt8(truncatingIfNeeded: generator.next())
                if index == 6 { byte = byte & 0x0f | 0x40 }  // the version, 4
                if index == 8 { byte = byte & 0x3f | 0x80 }  // the variant, RFC 4122's
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    text[offset] = UInt8(ascii: "-")
                    offset += 1
                }
                text[offset] = hexDigits[Int(byte >> 4)]
                text[offset + 1] = hexDigits[Int(byte & 0x0f)]
                offset += 2
            }
            return offset
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
