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

    var rowCount = 0
    var firstRowPosition: SourcePosition
    var firstPositions: [String: SourcePosition] = [:]
    var declared: [String: (FieldType, SourcePosition)] = [:]
    var inferred: [String: InferredKind] = [:]
    var nameColumn: String?
    var nameColumnConsistent = true
    var nameInputs: [NameInput] = []
    /// Distinct texts of each field (list elements included), up to ``distinctValueLimit``.
    var distinctValues: [String: Set<String>] = [:]
    /// Fields with more distinct values than are kept.
    var overflowing: Set<String> = []
    /// Per natural key, how many rows have it and its distinct values.
    var naturalKeyCounts: [String: Int] = [:]
    /// Fields whose every value so far is a path to an existing media or document file.
    var assetPaths: [String: Bool] = [:]
    /// Field names that differ from their source keys: field → key.
    var renamedKeys: [String: String] = [:]

    init(firstRowPosition: SourcePosition) {
        self.firstRowPosition = firstRowPosition
    }

    mutating func add(_ row: PreparedRow, isChild: Bool, templateText: String?, assetFolder: String) throws {
        rowCount += 1
        renamedKeys.merge(row.renamedKeys) { first, _ in first }
        if rowCount == 1 { nameColumn = row.nameColumn?.column }
        if nameColumn != row.nameColumn?.column { nameColumnConsistent = false }
        let keys = NaturalKeys.keys(of: row.fields)
        for (key, _) in keys { naturalKeyCounts[key, default: 0] += 1 }
        var keyPosition = row.position
        keyPosition.keyPath = nil
        nameInputs.append(NameInput(
            givenName: row.givenName, nameColumn: row.nameColumn?.value, templateText: templateText,
            naturalKeys: keys, ordinal: row.ordinal, position: row.position, isChild: isChild))
        for (key, text) in keys { remember(text, for: key, limited: false) }
        for field in row.fields {
            if firstPositions[field.key] == nil { firstPositions[field.key] = field.position }
            if let type = field.declaredType {
                if let (other, position) = declared[field.key], other != type {
                    throw CloudSeedError(
                        "field '\(field.key)' of type \(row.recordType) is declared \(type.wireName) here but \(other.wireName) at \(position); make them agree",
                        at: field.position)
                }
                declared[field.key] = (type, field.position)
                continue
            }
            guard let kind = InferredKind(of: field.value) else { continue }
            inferred[field.key] = inferred[field.key].map { $0.merged(with: kind) } ?? kind
            if kind.isTextual, !CaseInsensitiveNames.matchesAny(field.key, NaturalKeys.fields) {
                for text in Self.texts(of: field.value) { remember(text, for: field.key) }
            }
            if assetPaths[field.key] != false {
                let texts = Self.texts(of: field.value)
                assetPaths[field.key] = !texts.isEmpty && texts.allSatisfy { AssetLoader.isMediaFile($0, in: assetFolder) }
            }
        }
    }

    /// Keeps a distinct value; natural keys are kept whole (their uniqueness decides record names),
    /// other fields up to ``distinctValueLimit``.
    private mutating func remember(_ text: String, for field: String, limited: Bool = true) {
        guard !overflowing.contains(field) else { return }
        distinctValues[field, default: []].insert(text)
        if limited, distinctValues[field]!.count > Self.distinctValueLimit {
            overflowing.insert(field)
            distinctValues[field] = nil
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
                naturalKeyCounts[key] == rowCount, let values = distinctValues[key], values.count == rowCount
            else { return nil }
            return key
        }
    }
}
