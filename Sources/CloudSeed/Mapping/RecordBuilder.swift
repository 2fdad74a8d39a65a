import Foundation

/// Builds the records prepared rows make, as the plan types them: each field's value converted to
/// its planned type, its references resolved to the names of the records they point to, its asset
/// files loaded, the record held to CloudKit's size limit; then the row's child records, named
/// after it. A row that cannot be built is refused with every reason, in CloudKit's words where
/// CloudKit has them.
///
/// A builder keeps what it found for the last rows (each key's field, each reference's target), so
/// it is used by one thread.
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
    /// The slots of the last row's keys; a builder is used by one thread.
    private let recent = RecentSlots()

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
        /// The values that texts of this field resolved to, found again by the texts' bytes: a
        /// reference field repeats the same few names (an Artwork's `artist`), each otherwise looked
        /// up and its record name transliterated again for every row.
        var resolvedReferences = ByteKeyedValues<RecordValue>()
        /// How many resolved references a field keeps (here and in ``FlatCellTyping``): memory stays
        /// flat where every row names another record.
        static let resolvedReferenceLimit = 1 << 14

        init(index: Int, field: PlannedField) {
            self.index = index
            self.field = field
            resolvesReferences = ReferenceResolution.resolves(field)
        }
    }

    /// What building a row gives: a record, or the row refused with why.
    enum Outcome {
        case record(FlatRecord)
        case refused(PreparedRow, [CloudSeedError])
    }

    init(plan: ImportPlan, options: MappingOptions) {
        self.plan = plan
        self.options = options
        let assetFiles = AssetFiles(allowOutside: options.allowOutsideAssets)
        self.assetFiles = assetFiles
        converter = ValueConverter(
            loadAsset: { path, position in try assetFiles.load(path, at: position) },
            recordName: RecordNaming.recordName(from:))
        var slots: [String: [String: Slot]] = [:]
        for type in plan.recordTypes {
            slots[type.name] = Dictionary(
                uniqueKeysWithValues: type.sortedFieldNames.enumerated().map {
                    ($0.element, Slot(index: $0.offset, field: type.fields[$0.element]!))
                })
        }
        self.slots = slots
        typesLoadingAssets = Set(
            plan.recordTypes.filter { $0.fields.values.contains(where: \.type.holdsAssets) }.map(\.name))
    }

    /// The slots of the fields of `recordType` by name, if the plan has the type.
    func slots(of recordType: String) -> [String: Slot]? {
        slots[recordType]
    }

    /// Whether building `row` loads asset files: its type's records, or its child records, do.
    func loadsAssets(_ row: PreparedRow) -> Bool {
        typesLoadingAssets.contains(row.recordType) || row.children.contains { loadsAssets($0.row) }
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
            try build(childRow, name: RecordNaming.recordName(from: "\(name)-\(child.key)-\(child.index)"), handOn)
        }
    }

    /// Why a row was refused.
    private struct Refusal: Error {
        var errors: [CloudSeedError]
    }

    /// The record `row` makes, named `name`, without its child rows'.
    private func record(of row: PreparedRow, name: String) throws -> FlatRecord {
        if recent.recordType != row.recordType {
            recent.recordType = row.recordType
            recent.typeSlots = slots[row.recordType] ?? [:]
            recent.keys.removeAll()
        }
        assetFiles.loaded.removeAll(keepingCapacity: true)
        var values = [RecordValue?](repeating: nil, count: recent.typeSlots.count)
        var size = 0
        var errors: [CloudSeedError] = []
        var checksStore = false
        // Each field is lent in place: a copy of it would count references to its texts.
        for offset in row.fields.indices {
            guard let slot = recent.slot(of: row.fields[offset].key, at: offset) else { continue }
            do {
                let value = try typed(
                    row.fields[offset].value, at: row.fields[offset].position, as: slot, checksStore: &checksStore)
                size += value.encodedSize
                values[slot.index] = value
            } catch {
                errors.append(
                    try Self.worded(
                        error, field: row.fields[offset].key, recordType: row.recordType, planned: slot.field,
                        at: row.fields[offset].position))
            }
        }
        if size > RecordLimits.maximumRecordSize {
            errors.append(
                CloudSeedError(
                    .limitExceeded,
                    "record '\(name)' of type \(row.recordType) is \(size) bytes, over CloudKit's limit of \(RecordLimits.maximumRecordSize) bytes; move large values into an ASSET field",
                    at: row.position))
        }
        guard errors.isEmpty else { throw Refusal(errors: errors) }
        var record = FlatRecord(recordType: row.recordType, recordName: name, values: values, position: row.position)
        record.changeTag = row.changeTag
        record.checksStore = checksStore
        if !assetFiles.loaded.isEmpty { record.assetContents = assetFiles.loaded }
        return record
    }

    /// A field's value (at `position`) as its slot's plan types it, or `nil` where it cannot be
    /// typed or must be checked against the store: the record is then built from its row, which
    /// words why.
    func typed(_ plain: PlainValue, at position: SourcePosition, as slot: Slot) -> RecordValue? {
        var checksStore = false
        guard let value = try? typed(plain, at: position, as: slot, checksStore: &checksStore), !checksStore else {
            return nil
        }
        return value
    }

    /// A field's value as its slot's plan types it. A text whose bytes a reference field met
    /// before resolves to what it resolved to then (its value is its bytes' alone, whether it
    /// came typed or not). Sets `checksStore` for a value the store must check.
    private func typed(_ plain: PlainValue, at position: SourcePosition, as slot: Slot, checksStore: inout Bool)
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
        var value = try converter.convert(resolved, to: slot.field.type, at: position)
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
    private static func worded(
        _ error: any Error, field: String, recordType: String, planned: PlannedField, at position: SourcePosition
    ) throws -> CloudSeedError {
        switch error {
        case let mismatch as ValueConverter.Mismatch:
            FieldErrors.typeError(mismatch, field: field, recordType: recordType, planned: planned, at: position)
        case let failure as ReferenceResolution.Failure: CloudSeedError(failure.code, failure.message, at: position)
        case let error as CloudSeedError: error
        default: throw error
        }
    }

    /// The slots of the last row's keys by offset (``RecentKeys``), with its type's.
    private final class RecentSlots {
        var recordType = ""
        var typeSlots: [String: Slot] = [:]
        var keys = RecentKeys<Slot?>()

        func slot(of key: String, at offset: Int) -> Slot? {
            if let known = keys.value(of: key, at: offset) { return known }
            let found = typeSlots[key]
            keys.remember(found, for: key, at: offset)
            return found
        }
    }

    /// The asset files the last record loaded, and the folder their paths start from.
    private final class AssetFiles {
        let allowOutside: Bool
        var folder = ""
        var loaded: [String: Data] = [:]

        init(allowOutside: Bool) { self.allowOutside = allowOutside }

        func load(_ path: String, at position: SourcePosition) throws -> AssetReference {
            try AssetLoader.load(path, at: position, folder: folder, allowOutside: allowOutside, into: &loaded)
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
