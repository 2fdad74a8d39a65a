import Foundation

/// What the first pass learns about one record type while reading: enough to decide field types,
/// the naming rule and the references, without keeping the rows.
struct TypeSurvey {
    /// How many distinct values of one field are kept to try it as a reference or natural key.
    static let distinctValueLimit = 200_000

    /// What a row's name can be made from, once the rule is known.
    struct NameInput {
        var givenName: String?
        var nameColumn: String?
        var templateText: String?
        var naturalKeys: [(String, String)]
        var ordinal: Int
        var position: SourcePosition
        var isChild: Bool
    }

    /// What is learnt of one field; a class, so that a row updates it in place after one lookup.
    final class FieldSurvey {
        let firstPosition: SourcePosition
        var declared: (FieldType, SourcePosition)?
        var inferred: InferredKind?
        /// Whether every value so far is a path to an existing media or document file.
        var assetPaths: Bool?
        /// Whether the field's name is a natural key's (whose values are kept whole, by key).
        let isNaturalKeyName: Bool
        var distinctValues: Set<String> = []
        var overflowing = false

        init(key: String, firstPosition: SourcePosition) {
            self.firstPosition = firstPosition
            isNaturalKeyName = CaseInsensitiveNames.matchesAny(key, NaturalKeys.fields)
        }
    }

    var rowCount = 0
    var firstRowPosition: SourcePosition
    private(set) var fields: [String: FieldSurvey] = [:]
    var nameColumn: String?
    var nameColumnConsistent = true
    var nameInputs: [NameInput] = []
    /// Per natural key, how many rows have it.
    var naturalKeyCounts: [String: Int] = [:]
    /// Per natural key, its distinct values, all of them: their uniqueness decides record names.
    private var naturalKeyValues: [String: Set<String>] = [:]
    /// Field names that differ from their source keys: field → key.
    var renamedKeys: [String: String] = [:]

    init(firstRowPosition: SourcePosition) {
        self.firstRowPosition = firstRowPosition
    }

    /// Where each field was first set.
    var firstPositions: [String: SourcePosition] { fields.mapValues(\.firstPosition) }
    /// The type each field declares in the source, where it declares one.
    var declared: [String: (FieldType, SourcePosition)] { fields.compactMapValues(\.declared) }
    /// The kind each field's values suggest, merged over all of them.
    var inferred: [String: InferredKind] { fields.compactMapValues(\.inferred) }
    /// Fields whose every value is a path to an existing media or document file (`true`), or not.
    var assetPaths: [String: Bool] { fields.compactMapValues(\.assetPaths) }
    /// Distinct texts of each field (list elements included) up to ``distinctValueLimit``, and of each natural key.
    var distinctValues: [String: Set<String>] {
        var result = naturalKeyValues
        for (name, field) in fields where !field.overflowing && !field.distinctValues.isEmpty { result[name] = field.distinctValues }
        return result
    }

    mutating func add(_ row: PreparedRow, isChild: Bool, templateText: String?, assetFolder: String) throws {
        rowCount += 1
        if !row.renamedKeys.isEmpty { renamedKeys.merge(row.renamedKeys) { first, _ in first } }
        if rowCount == 1 { nameColumn = row.nameColumn?.column }
        if nameColumn != row.nameColumn?.column { nameColumnConsistent = false }
        let keys = NaturalKeys.keys(of: row.fields)
        for (key, text) in keys {
            naturalKeyCounts[key, default: 0] += 1
            naturalKeyValues[key, default: []].insert(text)
        }
        nameInputs.append(NameInput(
            givenName: row.givenName, nameColumn: row.nameColumn?.value, templateText: templateText,
            naturalKeys: keys, ordinal: row.ordinal, position: row.position, isChild: isChild))
        for field in row.fields {
            let survey: FieldSurvey
            if let known = fields[field.key] {
                survey = known
            } else {
                survey = FieldSurvey(key: field.key, firstPosition: field.position)
                fields[field.key] = survey
            }
            if let type = field.declaredType {
                if let (other, position) = survey.declared, other != type {
                    throw CloudSeedError(
                        "field '\(field.key)' of type \(row.recordType) is declared \(type.wireName) here but \(other.wireName) at \(position); make them agree",
                        at: field.position)
                }
                survey.declared = (type, field.position)
                continue
            }
            guard let kind = InferredKind(of: field.value) else { continue }
            survey.inferred = survey.inferred.map { $0.merged(with: kind) } ?? kind
            let needsTexts = (kind.isTextual && !survey.isNaturalKeyName && !survey.overflowing) || survey.assetPaths != false
            guard needsTexts else { continue }
            let texts = Self.texts(of: field.value)
            if kind.isTextual, !survey.isNaturalKeyName, !survey.overflowing {
                for text in texts { survey.distinctValues.insert(text) }
                if survey.distinctValues.count > Self.distinctValueLimit {
                    survey.overflowing = true
                    survey.distinctValues = []
                }
            }
            if survey.assetPaths != false {
                survey.assetPaths = !texts.isEmpty && texts.allSatisfy { AssetLoader.isMediaFile($0, in: assetFolder) }
            }
        }
    }

    /// The texts of a scalar value, or of a list's elements.
    static func texts(of value: PlainValue) -> [String] {
        if case .array(let items) = value { return items.compactMap(RecordNaming.text(of:)) }
        return RecordNaming.text(of: value).map { [$0] } ?? []
    }

    /// Natural keys whose values are unique and set on every row, in order of preference.
    var uniqueNaturalKeys: [String] {
        (NaturalKeys.fields + naturalKeyCounts.keys.filter { $0.hasPrefix("{") }.sorted()).compactMap { candidate in
            guard let key = naturalKeyCounts.keys.first(where: { $0.lowercased() == candidate.lowercased() }),
                naturalKeyCounts[key] == rowCount, let values = naturalKeyValues[key], values.count == rowCount
            else { return nil }
            return key
        }
    }
}
