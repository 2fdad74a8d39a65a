import Foundation

/// What the first pass learns about one record type while reading: enough to decide field types,
/// the naming rule and the references, without keeping the rows.
struct TypeSurvey {
    /// How many distinct values of one field are kept to try it as a reference.
    static let distinctValueLimit = 200_000

    /// What is learnt of one field; a class, so that a row updates it in place after one lookup.
    final class FieldSurvey {
        /// Where the field was first set.
        private(set) var firstPosition: SourcePosition
        /// The type the source declares, where, and whether by the shape of a CloudKit value.
        var declared: (type: FieldType, position: SourcePosition, byShape: Bool)?
        var inferred: InferredKind?
        /// Whether every value so far is a relative path to a media or document file, by its extension.
        var assetPaths: Bool?
        /// How many of those paths name existing files.
        private(set) var assetFiles = AssetFileCount()
        /// Whether the field's name may point to a record type, so that its values are kept to try
        /// it as a reference. Other fields keep none: memory stays flat.
        let keepsValues: Bool
        /// Set when a type this field's name points to turned up after the field: its values are
        /// then gathered in another pass (``TypeSurvey/addMissedValues(of:)``).
        var missedValues = false
        var distinctValues: Set<String> = []
        var overflowing = false
        /// The bytes of the cells whose texts were kept: a cell of the same bytes is not made a text again.
        private var keptBytes = ByteKeyedTexts()
        /// How the field's untyped reals (a CSV column's) are written, to keep versions as text.
        private(set) var decimals = DecimalSpellings()
        /// The field's lists as natural keys (``NaturalKeyLists``) while every list is one and
        /// its values are kept; `nil` once one is not.
        private(set) var keyLists: Set<String>? = []

        init(firstPosition: SourcePosition, keepsValues: Bool) {
            self.firstPosition = firstPosition
            self.keepsValues = keepsValues
        }

        func addDistinct<Texts: Sequence<String>>(_ texts: Texts) {
            guard !overflowing else { return }
            for text in texts { distinctValues.insert(text) }
            if distinctValues.count > TypeSurvey.distinctValueLimit {
                overflowing = true
                distinctValues = []
                keptBytes.removeAll()
            }
        }

        /// Takes in a value the source does not declare a type for (`assetFolder` is where its
        /// asset paths start from).
        func add(_ value: PlainValue, assetFolder: String) {
            guard takesValues, let kind = InferredKind(of: value) else { return }
            if case .array(let items) = value { noteKeyList(items) }
            switch value {
            case .text(var text) where keepsTextsByBytes(text), .string(var text) where keepsTextsByBytes(text):
                // A text kept before is found by its bytes, not hashed into the set again.
                text.withUTF8 { add(kind, bytes: $0, assetFolder: assetFolder) }
            case .text(var text) where kind.isDecimalText, .string(var text) where kind.isDecimalText:
                // Its spelling is noted, as a CSV cell's is where it is read.
                text.withUTF8 { add(kind, bytes: $0, assetFolder: assetFolder) }
            default:
                add(kind, assetFolder: assetFolder) { TypeSurvey.texts(of: value) }
            }
        }

        /// Takes in a list as a natural key, or learns that the field's lists are none.
        private func noteKeyList(_ items: [PlainValue]) {
            guard keyLists != nil else { return }
            guard keepsValues, let key = NaturalKeyLists.key(of: items), keyLists!.count < TypeSurvey.distinctValueLimit
            else {
                keyLists = nil
                return
            }
            keyLists!.insert(key)
        }

        /// Whether `text` is taken in as a cell's bytes are (``add(_:bytes:assetFolder:)``): a
        /// text to keep, in a field whose values are no asset paths.
        private func keepsTextsByBytes(_ text: String) -> Bool {
            keepsValues && !overflowing && assetPaths == false && !text.isEmpty
        }

        /// Whether a value can still change what is learnt: text merged with anything stays
        /// text, so a field already STRING needs its values only to keep them or to try them as
        /// asset paths. Once `false`, never `true` again: the kind stays STRING, an overflowing
        /// field keeps overflowing, and values found no asset paths stay none.
        var takesValues: Bool {
            !(inferred == .string && (!keepsValues || overflowing) && assetPaths == false)
        }

        /// Takes in a value of `kind` (not that of a value that leaves the field unset), whose
        /// texts (``TypeSurvey/texts(of:)``) `texts` makes only when they are needed.
        func add(_ kind: InferredKind, assetFolder: String, texts: () -> [String]) {
            inferred = inferred.map { $0.merged(with: kind) } ?? kind
            let keepsTexts = kind.isTextual && keepsValues && !overflowing
            guard keepsTexts || assetPaths != false else { return }
            let texts = texts()
            if keepsTexts { addDistinct(texts) }
            if assetPaths != false {
                assetPaths = !texts.isEmpty && texts.allSatisfy(AssetLoader.namesMediaFile)
                if assetPaths == true {
                    assetFiles.count(texts, in: assetFolder)
                    if assetFiles.isText { assetPaths = false }
                }
            }
        }

        /// Whether a value of `kind` changes nothing the survey learns: a kind the field's holds
        /// already (most cells of a column: a million numbers, one kind; an integer among reals), in
        /// a field whose values are no asset paths, that keeps no text of it. Once `true` for a kind,
        /// `true` for good: kinds only widen, and values found no asset paths stay none.
        func absorbs(_ kind: InferredKind) -> Bool {
            guard assetPaths == false, !(kind.isTextual && keepsValues && !overflowing), let inferred,
                !(kind.isDecimalText && decimals.isChecking)
            else {
                return false
            }
            return inferred == kind || inferred.merged(with: kind) == inferred
        }

        /// Takes in a cell's value of `kind`, whose bytes (a CSV cell's, a JSON string's) are `bytes`, as
        /// ``add(_:assetFolder:texts:)`` takes it with its text: made only where a text is wanted
        /// and no cell of the same bytes was kept before (its text is among the kept ones then).
        func add(_ kind: InferredKind, bytes: UnsafeBufferPointer<UInt8>, assetFolder: String) {
            if absorbs(kind) { return }
            if kind.isDecimalText { decimals.note(bytes) }
            guard kind.isTextual, keepsValues, !overflowing, assetPaths == false else {
                return add(kind, assetFolder: assetFolder) { TypeSurvey.texts(of: kind, bytes: bytes) }
            }
            if keptBytes.contains(bytes) {
                inferred = inferred.map { $0.merged(with: kind) } ?? kind
                return
            }
            add(kind, assetFolder: assetFolder) { TypeSurvey.texts(of: kind, bytes: bytes) }
            if !overflowing { keptBytes.insert(bytes) }
        }

        /// Takes in what `other` learnt of the same field from other values, as if this survey had
        /// taken them itself. Values `other` did not keep but this one would are gathered again
        /// (``missedValues``).
        func merge(_ other: FieldSurvey) {
            // A JSON source's records read as cells are taken in once the source is read, after
            // the records it read whole, which may have set the field later in the file.
            if Self.precedes(other.firstPosition, firstPosition) { firstPosition = other.firstPosition }
            if let kind = other.inferred { inferred = inferred.map { $0.merged(with: kind) } ?? kind }
            if let paths = other.assetPaths { assetPaths = (assetPaths ?? true) && paths }
            assetFiles.merge(other.assetFiles)
            decimals.merge(other.decimals)
            // Lists surveyed as cells are not noted as keys: the field's keys are then not all known.
            if case .list? = other.inferred, other.keyLists?.isEmpty != false {
                keyLists = nil
            } else if let otherKeys = other.keyLists {
                keyLists?.formUnion(otherKeys)
            }
            guard keepsValues else { return }
            if !other.keepsValues {
                if other.inferred != nil { missedValues = true }
            } else if other.overflowing {
                overflowing = true
                distinctValues = []
                keptBytes.removeAll()
            } else {
                addDistinct(other.distinctValues)
            }
        }

        /// Whether `position` comes before `other` in the same file.
        private static func precedes(_ position: SourcePosition, _ other: SourcePosition) -> Bool {
            guard let line = position.line, let otherLine = other.line, position.file == other.file else {
                return false
            }
            return (line, position.column ?? 0) < (otherLine, other.column ?? 0)
        }
    }

    var rowCount = 0
    var firstRowPosition: SourcePosition
    private(set) var fields: [String: FieldSurvey] = [:]
    /// The surveys of the last row's fields by offset.
    private var recent = RecentKeys<FieldSurvey>()
    var naming: NamingSurvey
    /// Field names that differ from their source keys: field → key.
    var renamedKeys: [String: String] = [:]

    init(firstRowPosition: SourcePosition, naming: NamingSurvey) {
        self.firstRowPosition = firstRowPosition
        self.naming = naming
    }

    /// Where each field was first set.
    var firstPositions: [String: SourcePosition] { fields.mapValues(\.firstPosition) }
    /// The type each field declares in the source, where it declares one.
    var declared: [String: (type: FieldType, position: SourcePosition, byShape: Bool)] {
        fields.compactMapValues(\.declared)
    }
    /// The kind each field's values suggest, merged over all of them.
    var inferred: [String: InferredKind] { fields.compactMapValues(\.inferred) }
    /// How each field's untyped reals are written.
    var decimals: [String: DecimalSpellings] { fields.mapValues(\.decimals) }
    /// Fields whose every value is a path to a media or document file, with how many name existing files.
    var assetFiles: [String: AssetFileCount] {
        fields.compactMapValues { $0.assetPaths == true ? $0.assetFiles : nil }
    }
    /// Distinct texts of each field that may point to a record type (list elements included), up to ``distinctValueLimit``.
    var distinctValues: [String: Set<String>] {
        fields.filter { !$0.value.overflowing && !$0.value.distinctValues.isEmpty }.mapValues(\.distinctValues)
    }

    /// The natural keys each field's lists make (``NaturalKeyLists``), where every list makes one.
    var keyLists: [String: Set<String>] {
        fields.compactMapValues { $0.keyLists?.isEmpty == false ? $0.keyLists : nil }
    }

    /// Takes in a top-level row whose fields were surveyed where they were read, and whose naming
    /// is told by the name the plan gives it (``NamingSurvey/add(nameColumn:key:name:source:)``).
    mutating func add(nameColumn: String?, key: String?, name: String?, source: Int) {
        rowCount += 1
        naming.add(nameColumn: nameColumn, key: key, name: name, source: source)
    }

    /// Takes in a row; `source` numbers the source it comes from, `keyName` is the name one of
    /// its natural keys gives it where made already, and `mayPointToType` tells whether a field's
    /// name may point to a record type.
    mutating func add(
        _ row: PreparedRow, isChild: Bool, source: Int, keyName: (key: String, name: String)? = nil,
        assetFolder: String,
        mayPointToType: (String) -> Bool
    ) throws {
        rowCount += 1
        if !row.renamedKeys.isEmpty { renamedKeys.merge(row.renamedKeys) { first, _ in first } }
        naming.add(row, isChild: isChild, source: source, keyName: keyName)
        // Each field is lent in place, through the array's buffer: a copy of it would count
        // references to its texts.
        try row.fields.withUnsafeBufferPointer { fields in
            for offset in fields.indices {
                try add(
                    fields[offset].value, of: fields[offset].key, declared: fields[offset].declaredType,
                    byShape: fields[offset].isTypedByShape, at: fields[offset].position,
                    offset: offset, in: row.recordType, assetFolder: assetFolder, mayPointToType: mayPointToType)
            }
        }
    }

    /// Takes in what was learnt of a source's fields column by column (read as cells), its records having
    /// been added as rows that only name them. A field new to the type whose values were not kept,
    /// but whose name points to a record type now, has them gathered again (``FieldSurvey/missedValues``).
    mutating func merge(_ columns: ColumnSurvey, mayPointToType: (String) -> Bool) {
        for (name, column) in columns.fields {
            if let known = fields[name] {
                known.merge(column)
            } else {
                if !column.keepsValues, mayPointToType(name) { column.missedValues = true }
                fields[name] = column
            }
        }
    }

    /// Takes in the value of the field `key` (declared of a type, at `position`) at `offset` of a
    /// row of `recordType`.
    private mutating func add(
        _ value: PlainValue, of key: String, declared declaredType: FieldType?, byShape: Bool,
        at position: SourcePosition,
        offset: Int,
        in recordType: String, assetFolder: String, mayPointToType: (String) -> Bool
    ) throws {
        let survey: FieldSurvey
        if let known = recent.value(of: key, at: offset) {
            survey = known
        } else {
            if let known = fields[key] {
                survey = known
            } else {
                survey = FieldSurvey(firstPosition: position, keepsValues: mayPointToType(key))
                fields[key] = survey
            }
            recent.remember(survey, for: key, at: offset)
        }
        if let type = declaredType {
            if let (other, earlier, _) = survey.declared, other != type {
                throw CloudSeedError(
                    .invalidSchema,
                    "field '\(key)' of type \(recordType) is declared \(type.wireName) here but \(other.wireName) at \(earlier); make them agree",
                    at: position)
            }
            survey.declared = (type, position, byShape)
            return
        }
        survey.add(value, assetFolder: assetFolder)
    }

    /// The texts of a scalar value, or of a list's elements (a text's that holds a JSON array too).
    static func texts(of value: PlainValue) -> [String] {
        if case .array(let items) = value { return items.compactMap(\.namingText) }
        if case .text(let text) = value, text.utf8.first == UInt8(ascii: "["), let items = JSONListText.items(text) {
            return items.compactMap(\.namingText)
        }
        return value.namingText.map { [$0] } ?? []
    }

    /// The texts of a value of `kind` given as its text's bytes: its elements' for a list.
    static func texts(of kind: InferredKind, bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        if case .list = kind, let items = JSONListText.items(bytes) { return items.compactMap(\.namingText) }
        return [String(decoding: bytes, as: UTF8.self)]
    }

    /// Gathers, in a later pass, the values of the fields that missed them in the first.
    func addMissedValues(of row: PreparedRow) {
        for field in row.fields {
            guard let survey = fields[field.key], survey.missedValues, InferredKind(of: field.value)?.isTextual == true
            else { continue }
            survey.addDistinct(Self.texts(of: field.value))
        }
    }

    /// Whether some field missed values it needs: the first pass then gathers them again.
    var hasMissedValues: Bool { fields.values.contains(where: \.missedValues) }
}
