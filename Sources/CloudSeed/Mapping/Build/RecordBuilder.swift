import Foundation

/// Builds every record of a run as the plan types it: each field's value converted to its planned
/// type, its references resolved to the names of the records they point to, its asset files
/// loaded, the record held to CloudKit's size limit; then a row's child records, named after it. A
/// row that cannot be built is refused with every reason, in CloudKit's words where CloudKit has
/// them. Its one typing is ``ColumnTyping``: of a source's header for records read as cells, of a
/// prepared row's keys for the others.
///
/// A builder keeps what it found for the last rows (the typings of their keys, each reference's
/// target), so it is used by one thread.
final class RecordBuilder {
    let plan: ImportPlan
    let options: MappingOptions
    /// Converts values to their planned types, loading asset files from ``assetFolder``.
    let converter: ValueConverter
    private let assetFiles: AssetFiles
    /// The slots of each record type's fields, by field name.
    private let slots: [String: [String: Slot]]
    /// The record types whose records load asset files.
    let typesLoadingAssets: Set<String>
    /// The typings of the prepared rows of each type whose fields come in the same order, the
    /// last one's apart: the rows of a document mostly repeat their keys.
    private var typings: [TypingKey: ColumnTyping] = [:]
    private var lastTyping: (key: TypingKey, typing: ColumnTyping)?
    /// How many typings of rows a builder keeps: memory stays flat where every row has other keys.
    private static let typingLimit = 1 << 10

    /// The folder asset paths of the next rows start from: their source's.
    var assetFolder: String {
        get { assetFiles.folder }
        set { assetFiles.folder = newValue }
    }

    /// Where a field goes among a record's values, with its plan: shared by every row rather than
    /// copied out for every value.
    final class Slot {
        let index: Int
        let field: PlannedField
        /// Whether its values are record names to resolve (``ReferenceResolution/resolves(_:)``).
        let resolvesReferences: Bool
        /// Whether a CSV cell's bytes may type its values: not where dates are read otherwise than
        /// the default way (``DateReading``), nor where the app's model checks them (``ModelValues``).
        let typesCellBytes: Bool
        /// The values that texts of this field resolved to, found again by the texts' bytes: a
        /// reference field repeats the same few names (an Artwork's `artist`), each otherwise looked
        /// up and its record name transliterated again for every row.
        var resolvedReferences = ByteKeyedValues<RecordValue>()
        /// How many resolved references a field keeps (here and in ``ColumnTyping``): memory stays
        /// flat where every row names another record.
        static let resolvedReferenceLimit = 1 << 14

        init(index: Int, field: PlannedField) {
            self.index = index
            self.field = field
            resolvesReferences = ReferenceResolution.resolves(field)
            typesCellBytes =
                field.dateReading == nil && !(field.modelField?.attribute.map { ModelValues.checks($0.type) } ?? false)
        }
    }

    /// What building a row gives: a record, or the row refused with why.
    enum Outcome {
        case record(TypedRecord)
        case refused(PreparedRow, [CloudSeedError])
    }

    init(plan: ImportPlan, options: MappingOptions) {
        self.plan = plan
        self.options = options
        let assetFiles = AssetFiles(allowOutside: options.allowOutsideAssets, allowMissing: options.allowDangling)
        self.assetFiles = assetFiles
        converter = ValueConverter(
            loadAsset: { path, position in try assetFiles.load(path, at: position) },
            recordName: RecordNaming.recordName(from:),
            readFile: { path, position in try assetFiles.read(path, at: position) })
        var slots: [String: [String: Slot]] = [:]
        for type in plan.recordTypes {
            slots[type.name] = Dictionary(
                uniqueKeysWithValues: type.sortedFieldNames.enumerated().map {
                    ($0.element, Slot(index: $0.offset, field: type.fields[$0.element]!))
                })
        }
        self.slots = slots
        // An app model's Binary attributes may name files too.
        typesLoadingAssets = Set(
            plan.recordTypes.filter {
                $0.fields.values.contains { $0.type.holdsAssets || $0.modelField?.attribute?.type.fieldType == .bytes }
            }.map(\.name))
    }

    /// The slots of the fields of `recordType` by name, if the plan has the type.
    func slots(of recordType: String) -> [String: Slot]? {
        slots[recordType]
    }

    /// Builds the record `row` makes, named `name`, then those of its child rows, handing each on
    /// to `handOn` in that order. A child of a refused row is left to the refusal where bad rows
    /// are skipped (``RecordMapper`` refuses it with its parent), and built otherwise, so that its
    /// own errors are told too. A row of a type the plan leaves out makes no record.
    func build(_ row: PreparedRow, name: String, _ handOn: (Outcome) throws -> Void) throws {
        guard slots[row.recordType] != nil else { return }
        do {
            let record = try record(of: row, name: name)
            try handOn(.record(record))
        } catch let refusal as Refusal {
            try handOn(.refused(row, refusal.errors))
            if options.skipBadRows { return }
        }
        for child in row.children {
            var childRow = child.row
            if let index = childRow.fields.firstIndex(where: { $0.key == child.parentField }) {
                childRow.fields[index].value = .string(name)
            }
            try build(childRow, name: RecordNaming.recordName(from: "\(name)-\(child.key)-\(child.place)"), handOn)
        }
    }

    /// Why a row was refused.
    struct Refusal: Error {
        var errors: [CloudSeedError]
    }

    /// The record `row` makes, named `name`, without its child rows'.
    private func record(of row: PreparedRow, name: String) throws -> TypedRecord {
        assetFiles.loaded.removeAll(keepingCapacity: true)
        var record = try typing(of: row).record(of: row, name: name, changeTag: row.changeTag, at: row.position)
        if !assetFiles.loaded.isEmpty { record.assetContents = assetFiles.loaded }
        return record
    }

    /// The record type and the keys of a prepared row, in order.
    private struct TypingKey: Hashable {
        var recordType: String
        var keys: [String]
    }

    /// The typing of the rows of `row`'s type whose fields are `row`'s keys, in their order.
    private func typing(of row: PreparedRow) -> ColumnTyping {
        if let last = lastTyping, last.key.recordType == row.recordType, last.key.keys.count == row.fields.count,
            zip(last.key.keys, row.fields).allSatisfy({ $0 == $1.key })
        {
            return last.typing
        }
        let key = TypingKey(recordType: row.recordType, keys: row.fields.map(\.key))
        let typing =
            typings[key]
            ?? ColumnTyping(
                recordType: row.recordType, columns: HeaderColumns(fieldNames: key.keys), typing: self, naming: nil,
                encoder: nil)
        if typings.count >= Self.typingLimit { typings.removeAll() }
        typings[key] = typing
        lastTyping = (key, typing)
        return typing
    }

    /// A field's value as its slot's plan types it. A text whose bytes a reference field met
    /// before resolves to what it resolved to then (its value is its bytes' alone, whether it
    /// came typed or not). Sets `checksStore` for a value the store must check.
    func typed(_ plain: PlainValue, at position: SourcePosition, as slot: Slot, checksStore: inout Bool)
        throws -> RecordValue
    {
        guard slot.resolvesReferences else { return try converted(plain, at: position, as: slot, &checksStore) }
        var text: String
        switch plain {
        case .text(let given), .string(let given): text = given
        default: return try converted(plain, at: position, as: slot, &checksStore)
        }
        if let known = text.withUTF8({ slot.resolvedReferences.value(for: $0) }) { return known }
        let value = try converted(plain, at: position, as: slot, &checksStore)
        if slot.resolvedReferences.count < Slot.resolvedReferenceLimit {
            text.withUTF8 { slot.resolvedReferences.insert($0, value: value) }
        }
        return value
    }

    private func converted(_ plain: PlainValue, at position: SourcePosition, as slot: Slot, _ checksStore: inout Bool)
        throws -> RecordValue
    {
        let resolved =
            slot.resolvesReferences
            ? try ReferenceResolution.resolve(plain, field: slot.field, in: plan, options: options) : plain
        var value = try converter.convert(resolved, to: slot.field, at: position)
        switch slot.field.type {
        case .asset, .list(.asset): if plain.holdsDictionary(where: { _ in true }) { checksStore = true }
        case .reference, .list(.reference):
            if plain.holdsDictionary(where: { $0.contains { $0.key == "zoneID" } }) { checksStore = true }
        default: break
        }
        if slot.field.action != .none { value = value.withReferenceAction(slot.field.action) }
        return value
    }

    /// A field's error as the user reads it: a value of the wrong type in CloudKit's words.
    func worded(
        _ error: any Error, field: String, recordType: String, planned: PlannedField, at position: SourcePosition
    ) -> CloudSeedError {
        switch error {
        case let mismatch as ValueConverter.Mismatch:
            FieldErrors.typeError(mismatch, field: field, recordType: recordType, planned: planned, at: position)
        case let failure as ReferenceResolution.Failure: CloudSeedError(failure.code, failure.message, at: position)
        case let error as CloudSeedError: error
        default: CloudSeedError(.invalidValue, "field '\(field)': \(error)", at: position)
        }
    }

    /// The asset files the last record loaded, and the folder their paths start from.
    private final class AssetFiles {
        let allowOutside: Bool
        let allowMissing: Bool
        var folder = ""
        var loaded: [String: Data] = [:]

        init(allowOutside: Bool, allowMissing: Bool) {
            self.allowOutside = allowOutside
            self.allowMissing = allowMissing
        }

        func load(_ path: String, at position: SourcePosition) throws -> AssetReference? {
            try AssetLoader.load(
                path, at: position, folder: folder, allowOutside: allowOutside, allowMissing: allowMissing,
                into: &loaded)
        }

        /// The bytes of the file at `path`, read as an asset's are but kept as a value; `nil`
        /// where there is no such file.
        func read(_ path: String, at position: SourcePosition) throws -> Data? {
            var contents: [String: Data] = [:]
            let asset = try AssetLoader.load(
                path, at: position, folder: folder, allowOutside: allowOutside, allowMissing: true, into: &contents)
            return asset.flatMap { contents[$0.fileChecksum] }
        }
    }
}

extension PlainValue {
    /// Whether the value is a dictionary, or a list holding one, of which `test` holds.
    fileprivate func holdsDictionary(where test: ([PlainEntry]) -> Bool) -> Bool {
        switch self {
        case .dictionary(let entries): test(entries)
        case .array(let items): items.contains { $0.holdsDictionary(where: test) }
        default: false
        }
    }
}

extension RecordValue {
    /// The same value with `action` on its references.
    func withReferenceAction(_ action: ReferenceAction) -> RecordValue {
        switch self {
        case .reference(var reference):
            reference.action = action
            return .reference(reference)
        case .list(let type, let items): return .list(type, items.map { $0.withReferenceAction(action) })
        default: return self
        }
    }
}

/// Errors about a field's values, in CloudKit's words where CloudKit has them.
enum FieldErrors {
    static func typeError(
        _ mismatch: ValueConverter.Mismatch, field: String, recordType: String, planned: PlannedField,
        at position: SourcePosition
    ) -> CloudSeedError {
        var message: OptionText =
            "invalid attempt to set value type \(mismatch.valueType) for field '\(field)' for type '\(recordType)', defined to be: \(planned.type.wireName)"
        if let detail = mismatch.detail { message += " (\(detail))" }
        switch planned.rule {
        case .schema: message += "; the store's schema defines '\(field)' as \(planned.type.schemaName): fix the value"
        case .override:
            message += "; fix the value or change \(option: .fieldType("\(field):\(planned.type.schemaName)"))"
        case .declared: message += "; fix the value or its declared type"
        case .cloudKitValue: message += "; fix the value or give its \"type\""
        case .inferred: message += "; fix the value"
        case .model: message += "; fix the value: the model makes it \(planned.reason ?? "")"
        }
        return CloudSeedError(.invalidValue, message, at: position)
    }
}
