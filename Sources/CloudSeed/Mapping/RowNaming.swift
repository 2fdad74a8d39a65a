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
        var byPosition: String { "\(row.recordType)-\(row.ordinal)" }
        if case .template(let template) = rule {
            return TemplateNaming.text(of: row, template: template).map(RecordNaming.recordName(from:))
        }
        // A name the source gives is kept whatever rule names the type's other rows.
        if let own = row.ownName { return RecordNaming.recordName(from: own) }
        switch rule {
        case .uuid: return randomName(of: row.recordType, rowNumber: rowNumber, seed: randomSeed)
        case .template: return nil
        case .fromSource, .parent: return byPosition
        case .column: return row.nameColumn.map { RecordNaming.recordName(from: $0.value) } ?? byPosition
        case .naturalKey(let key):
            return row.naturalKeys.first { $0.0 == key }.map { RecordNaming.recordName(from: $0.1) } ?? byPosition
        case .position: return byPosition
        }
    }

    /// The name `--uuid` gives the `rowNumber`-th row (from 0) of `type`.
    func randomName(of type: String, rowNumber: Int) -> String {
        Self.randomName(of: type, rowNumber: rowNumber, seed: randomSeed)
    }

    /// A version 4 UUID drawn from `seed`, the type and the row number.
    private static func randomName(of type: String, rowNumber: Int, seed: UInt64) -> String {
        var generator = SeededGenerator(
            seed: seed ^ UInt64(truncatingIfNeeded: type.hashValue) &+ UInt64(rowNumber) &* 0x9E37_79B9_7F4A_7C15)
        var bytes = (0..<16).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        bytes[6] = bytes[6] & 0x0f | 0x40
        bytes[8] = bytes[8] & 0x3f | 0x80
        let uuid = bytes.withUnsafeBytes { $0.load(as: uuid_t.self) }
        return UUID(uuid: uuid).uuidString
    }
}
