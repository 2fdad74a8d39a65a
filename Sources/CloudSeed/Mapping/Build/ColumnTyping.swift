/// The typing of the records whose fields come as columns in one order (``RecordCells``): a CSV
/// source's records, a flat JSON source's, or the prepared rows of a document that share their
/// keys. Each cell is typed as its field's plan says, straight from its bytes where they tell it,
/// into a ``TypedRecord``; a record read as cells is named as its type's rule names it.
///
/// The columns are a header's (``HeaderColumns``): a CSV source's first row, the keys of a JSON
/// source's first record, or a prepared row's keys. A record it cannot build (a value of the
/// wrong type, values over CloudKit's size) is refused with every reason, in CloudKit's words.
///
/// ```
/// catalogNumber,title,latitude,longitude      → Artwork "Harbor at Dusk":
/// 115,Harbor at Dusk,59.33,18.07                  catalogNumber INT64 115, title STRING,
///                                                 location LOCATION (59.33, 18.07)
/// ```
final class ColumnTyping {
    private let recordType: String
    private let columns: HeaderColumns
    /// The builder that made the typing, which outlives it and holds it.
    private unowned(unsafe) let typing: RecordBuilder
    private let converter: ValueConverter
    /// Each column's slot among the record's values; `nil` for a column the plan leaves out.
    private let slots: [RecordBuilder.Slot?]
    /// ``slots``, which hold them, lent to the typing of each cell without a reference counted for
    /// it: the loop retained and released the shared slot for every cell, in atomic operations.
    private let lentSlots: [Unmanaged<RecordBuilder.Slot>?]
    private let slotCount: Int
    private let locationSlot: RecordBuilder.Slot?
    /// How the type's records are named (``RowNaming/pendingName(by:ownName:naturalKey:template:)``),
    /// where the typing names them.
    private let naming: (rule: NamingRule, keyCells: KeyCells?)?
    /// The store's encoding of the records' values, where it encodes them where they are typed.
    private let encoder: StoredValueEncoder?
    /// The values of the last record whose values ``encoder`` encoded.
    @exclusivity(unchecked) private var lastValues: [RecordValue?]
    /// For each column whose STRING cells go to ``encoder`` as their bytes, without a `String`
    /// made of them, the place of its value.
    private let textPlaces: [Int?]
    /// The bytes of those cells of the last record, and where each lies, by its value's place.
    @exclusivity(unchecked) private var lastTexts: [UInt8] = []
    @exclusivity(unchecked) private var lastTextRanges: [Range<Int>?]
    /// The references the cells of each column that names records resolved to, found again by
    /// the cells' bytes: a reference column repeats the same few names (an Artwork's `artist`),
    /// each otherwise made a text, looked up by name and key, and named again for every row. Used
    /// by the reading thread alone, so not checked for overlapping access at run time.
    @exclusivity(unchecked) private var resolvedReferences: [ByteKeyedValues<RecordValue>]
    /// The columns whose cells the last record's typing found among ``resolvedReferences``: cells of
    /// bytes the column had before, which the source's survey need not take again
    /// (``ColumnSurvey/add(_:except:kinds:)``).
    @exclusivity(unchecked) private(set) var columnsFoundAgain: [Int] = []
    /// The kinds the typing of the last record's cells told (``TypedCellKinds``).
    @exclusivity(unchecked) private(set) var kindsTold: TypedCellKinds
    /// What is left to make of the last record's name, on the thread that names records.
    @exclusivity(unchecked) private(set) var lastNameToMake = NameToMake.done
    /// The name column (``RecordNaming/nameColumns``) whose text the last record has, if any: the
    /// name of its own, which the survey of its type counts.
    @exclusivity(unchecked) private(set) var lastNameColumn: String?
    /// Why the last record's cells could not be typed, in CloudKit's words.
    @exclusivity(unchecked) private var lastErrors: [CloudSeedError] = []
    /// Whether a value of the last record must be checked against the store (``TypedRecord/checksStore``).
    @exclusivity(unchecked) private var lastChecksStore = false

    /// What is left to make of a record's name once typed: transliterating a text is much of the
    /// work of typing the record, and a random name needs the row's number among its type's rows
    /// of the run; both are done in place, on the thread that names and writes records, the less busy
    /// (``RecordMapper/forEachRecord(_:plan:surveying:rowsReadAhead:assets:rejected:encoders:record:)``).
    enum NameToMake: UInt8 {
        /// Named by position: `Type-N`.
        case done
        /// The name is still the text it is made of (a name column's, a natural key's, a filled template).
        case byText
        /// `--uuid`: a random name for the row's number among its type's rows.
        case random

        /// Whether the name is made of a text (the survey takes those names).
        var isText: Bool { self == .byText }

        /// Makes the name of `record`, the `rowNumber`-th (from 0) of its type, as `naming` names its row.
        func make(_ record: inout TypedRecord, rowNumber: Int, naming: RowNaming) {
            switch self {
            case .done: return
            case .byText: record.recordName = RecordNaming.recordName(from: record.recordName)
            case .random: record.recordName = naming.randomName(of: record.recordType, rowNumber: rowNumber)
            }
        }
    }

    /// The cells of a natural key that names records: one column's (`title`), or a person's
    /// first-name and last-name columns', joined by a space.
    enum KeyCells {
        case column(Int)
        case person(first: Int, last: Int)
    }

    /// The typing of `header`'s records of `recordType`, read as cells and named by the type's
    /// rule, whose values `encoder` encodes, where given; `nil` where their records are read as rows.
    convenience init?(
        header: CSVHeader, recordType: String, plan: ImportPlan, options: MappingOptions, typing: RecordBuilder,
        encoder: StoredValueEncoder? = nil
    ) {
        // Asset files are loaded on the thread that writes the records; a type with rows the plan
        // refused has them refused as rows.
        guard let rule = plan.naming.rules[recordType], !typing.typesLoadingAssets.contains(recordType),
            plan.rowErrors[recordType] == nil,
            let columns = HeaderColumns(header: header, recordType: recordType, options: options)
        else { return nil }
        let names = columns.names
        let facts = columns.facts
        let keyCells: KeyCells?
        switch rule {
        case .position, .column, .qualifiedColumn, .uuid:
            keyCells = nil
        case .template:
            guard columns.template != nil else { return nil }
            keyCells = nil
        case .naturalKey(let key):
            if let column = names.firstIndex(of: key), facts[column].naturalKeyRole == .key {
                keyCells = .column(column)
            } else {
                let firsts = facts.indices.filter { facts[$0].naturalKeyRole == .firstName }
                let lasts = facts.indices.filter { facts[$0].naturalKeyRole == .lastName }
                guard firsts.count == 1, lasts.count == 1, key == "{\(names[firsts[0]])} {\(names[lasts[0]])}" else {
                    return nil
                }
                keyCells = .person(first: firsts[0], last: lasts[0])
            }
        default:
            return nil
        }
        guard typing.slots(of: recordType) != nil else { return nil }
        self.init(
            recordType: recordType, columns: columns, typing: typing, naming: (rule, keyCells), encoder: encoder)
    }

    /// The typing of the records of `recordType` whose fields are `columns`, named as `naming` says
    /// or, without it, by the name each is given.
    init(
        recordType: String, columns: HeaderColumns, typing: RecordBuilder,
        naming: (rule: NamingRule, keyCells: KeyCells?)?, encoder: StoredValueEncoder?
    ) {
        let typeSlots = typing.slots(of: recordType) ?? [:]
        let names = columns.names
        self.naming = naming
        self.recordType = recordType
        self.columns = columns
        self.typing = typing
        converter = typing.converter
        slots = names.map { typeSlots[$0] }
        lentSlots = slots.map { $0.map(Unmanaged.passUnretained) }
        resolvedReferences = Array(repeating: ByteKeyedValues(), count: names.count)
        kindsTold = TypedCellKinds(columns: names.count)
        slotCount = typeSlots.count
        locationSlot = typeSlots[LocationKeys.field]
        self.encoder = encoder
        lastValues = Array(repeating: nil, count: encoder == nil ? 0 : typeSlots.count)
        lastTextRanges = Array(repeating: nil, count: encoder == nil ? 0 : typeSlots.count)
        // Not the column whose text names the record: its `String` is the name.
        let namingColumn: Int? = if case .column(let column)? = naming?.keyCells { column } else { nil }
        textPlaces = slots.indices.map { [slots] column in
            guard encoder != nil, column != namingColumn, let slot = slots[column], slot.field.type == .string,
                !slot.resolvesReferences,
                slot.field.action == .none
            else { return nil }
            return slot.index
        }
    }

    /// The record a record's cells make (starting at `position`, the `ordinal`-th of its source,
    /// from 1), named by its type's rule. Where a text names it, its name is that text, still to be
    /// made a record name (``lastNameToMake``). `nil` where its values cannot be typed or are over
    /// CloudKit's size (``lastRefusal`` says why), or where its type's rule gives it no name (a
    /// template naming a field it leaves unset: it makes no record, as a row would not).
    func record<Cells: RecordCells>(of cells: Cells, at position: SourcePosition, ordinal: Int) -> TypedRecord? {
        lastRefusal = nil
        guard let naming else { return nil }
        let values = typedValues(of: cells)
        let ownName = columns.nameColumn(of: cells)
        lastNameColumn = ownName?.column
        let pending = RowNaming.pendingName(
            by: naming.rule, ownName: naming.rule.ownName(ownName?.value, of: recordType),
            naturalKey: { _ in
                switch naming.keyCells {
                case .column(let column)?: values.flatMap { typedText($0, column) } ?? cells.namingText(column)
                case .person(let first, let last)?:
                    cells.namingText(first).flatMap { first in cells.namingText(last).map { "\(first) \($0)" } }
                case nil: nil
                }
            }, template: { _ in columns.template?.text(of: cells) })
        let name: String
        switch pending {
        case .text(let text)?: (name, lastNameToMake) = (text, .byText)
        case .random?: (name, lastNameToMake) = ("\(recordType)-\(ordinal)", .random)
        case .position?: (name, lastNameToMake) = ("\(recordType)-\(ordinal)", .done)
        case nil: return nil
        }
        guard let values else {
            lastRefusal = Refusal(
                record: TypedRecord(recordType: recordType, recordName: name, values: [], position: position),
                name: lastNameToMake, errors: lastErrors, size: lastSize)
            return nil
        }
        return record(
            of: values, name: name, changeTag: columns.changeTag.flatMap { cells.namingText($0) }, at: position)
    }

    /// Why the last record's cells made no record, where they were refused.
    @exclusivity(unchecked) private(set) var lastRefusal: Refusal?

    /// A record whose cells were refused: a value that cannot be typed, or values over CloudKit's
    /// size. Its name is made on the thread that names records, as a typed record's is, before
    /// the size error, which names it, is worded.
    struct Refusal {
        /// The refused record: its type, its name still to make and its position, without values.
        var record: TypedRecord
        var name: NameToMake
        /// Why its values cannot be typed; none where they are over CloudKit's size.
        var errors: [CloudSeedError]
        var size: Int

        /// The reasons, once the record is named as `naming` names the `rowNumber`-th (from 0) of its type.
        mutating func reasons(rowNumber: Int, naming: RowNaming) -> [CloudSeedError] {
            name.make(&record, rowNumber: rowNumber, naming: naming)
            guard errors.isEmpty else { return errors }
            return [
                ColumnTyping.sizeError(
                    record.recordName, recordType: record.recordType, size: size, at: record.position)
            ]
        }
    }

    /// Why a record named `name` is refused where its values take `size` bytes, over CloudKit's limit.
    static func sizeError(_ name: String, recordType: String, size: Int, at position: SourcePosition) -> CloudSeedError
    {
        CloudSeedError(
            .limitExceeded,
            "record '\(name)' of type \(recordType) is \(size) bytes, over CloudKit's limit of \(RecordLimits.maximumRecordSize) bytes; move large values into an ASSET field",
            at: position)
    }

    /// The record a prepared row's fields make, named `name`; throws ``RecordBuilder/Refusal``
    /// with every reason where its values cannot be typed or are over CloudKit's size.
    func record<Cells: RecordCells>(of cells: Cells, name: String, changeTag: String?, at position: SourcePosition)
        throws -> TypedRecord
    {
        guard let values = typedValues(of: cells) else {
            throw RecordBuilder.Refusal(
                errors: lastErrors.isEmpty
                    ? [Self.sizeError(name, recordType: recordType, size: lastSize, at: position)] : lastErrors)
        }
        return record(of: values, name: name, changeTag: changeTag, at: position)
    }

    /// The size the last record's values take.
    @exclusivity(unchecked) private var lastSize = 0

    /// The values of a record's cells in their places; `nil` where a cell could not be typed
    /// (``lastErrors`` says why) or the values are over CloudKit's size (``lastSize``).
    private func typedValues<Cells: RecordCells>(of cells: Cells) -> [RecordValue?]? {
        columnsFoundAgain.removeAll(keepingCapacity: true)
        kindsTold.startRecord()
        lastErrors.removeAll(keepingCapacity: true)
        lastChecksStore = false
        let paired = columns.pair(in: cells)
        var size = 0
        let values: [RecordValue?]
        if encoder != nil {
            // Values the store encodes here are typed into the same array, record after record:
            // made and destroyed for each, the array's destruction alone was costly, each value
            // released through its type's generic witnesses.
            lastTexts.removeAll(keepingCapacity: true)
            for place in lastTextRanges.indices { lastTextRanges[place] = nil }
            lastValues.withUnsafeMutableBufferPointer { values in
                for index in values.indices { values[index] = nil }
                size = type(cells, paired: paired, into: values)
            }
            values = lastValues
        } else {
            // Filled where it is made: an array's subscript checks at every value that no other
            // array shares its storage.
            values = [RecordValue?](unsafeUninitializedCapacity: slotCount) { values, initialized in
                values.initialize(repeating: nil)
                initialized = values.count
                size = type(cells, paired: paired, into: values)
            }
        }
        lastSize = size
        guard lastErrors.isEmpty, size <= RecordLimits.maximumRecordSize else { return nil }
        return values
    }

    /// The record of typed `values`, encoded by the store where it encodes them here.
    private func record(of values: [RecordValue?], name: String, changeTag: String?, at position: SourcePosition)
        -> TypedRecord
    {
        if let encoder, !lastChecksStore,
            let encoded = encoder.encoded(values, textBytes: lastTexts, textRanges: lastTextRanges)
        {
            return TypedRecord(
                recordType: recordType, recordName: name, values: [], position: position, encodedValues: encoded)
        }
        // Not encoded here (or a value the store cannot keep: its save refuses it in the store's
        // words): the record keeps its values, its texts made values too.
        var kept = values
        for (place, range) in lastTextRanges.enumerated() {
            if let range { kept[place] = .string(String(decoding: lastTexts[range], as: UTF8.self)) }
        }
        var record = TypedRecord(recordType: recordType, recordName: name, values: kept, position: position)
        record.changeTag = changeTag
        record.checksStore = lastChecksStore
        return record
    }

    /// Keeps a STRING cell's bytes as the text of the value at `place`; returns how many there are.
    private func keepText(_ bytes: UnsafeBufferPointer<UInt8>, place: Int) -> Int {
        let start = lastTexts.count
        lastTexts.append(contentsOf: bytes)
        lastTextRanges[place] = start..<lastTexts.count
        return bytes.count
    }

    /// Types the record's cells into their values' places (a STRING cell whose text goes to the
    /// encoder as its bytes, into ``lastTexts``); returns the size the values take. A cell that
    /// cannot be typed adds why to ``lastErrors``.
    private func type<Cells: RecordCells>(
        _ cells: Cells, paired: (latitude: Int, longitude: Int)?, into values: UnsafeMutableBufferPointer<RecordValue?>
    ) -> Int {
        var size = 0
        for column in 0..<min(cells.count, slots.count) where cells.isSet(column) {
            guard column != paired?.latitude, column != paired?.longitude, let slot = lentSlots[column] else {
                continue
            }
            if let place = textPlaces[column], let count = cells.withTextBytes(column, { keepText($0, place: place) }) {
                size += count
                continue
            }
            slot._withUnsafeGuaranteedRef { slot in
                do {
                    let value = try typed(cells, column, as: slot)
                    size += value.encodedSize
                    values[slot.index] = consume value  // moved, not copied: no reference counted twice
                } catch is ValueConverter.LeftOut {
                    // The field stays unset.
                } catch {
                    lastErrors.append(
                        typing.worded(
                            error, field: columns.names[column], recordType: recordType, planned: slot.field,
                            at: cells.position(column)))
                }
            }
        }
        if let paired, let locationSlot {
            do {
                let value = try location(of: cells, paired, as: locationSlot)
                size += value.encodedSize
                values[locationSlot.index] = consume value
            } catch {
                lastErrors.append(
                    typing.worded(
                        error, field: LocationKeys.field, recordType: recordType, planned: locationSlot.field,
                        at: cells.position(paired.latitude)))
            }
        }
        return size
    }

    /// The text a set, non-empty cell was typed to where its field is a STRING: the cell's text,
    /// which names the record without being made again.
    private func typedText(_ values: [RecordValue?], _ column: Int) -> String? {
        guard let slot = slots[column], case .string(let text)? = values[slot.index], !text.isEmpty else { return nil }
        return text
    }

    /// A cell's value as its slot's plan types it: straight from its bytes where they tell it
    /// (a CSV cell's number or date), else from its value (``RecordBuilder/typed(_:at:as:checksStore:)``).
    private func typed<Cells: RecordCells>(_ cells: Cells, _ column: Int, as slot: RecordBuilder.Slot) throws
        -> RecordValue
    {
        if slot.resolvesReferences { return try resolvedReference(cells, column, as: slot) }
        if slot.typesCellBytes,
            case (let value, let kind)? = cells.typedByBytes(column, as: slot.field.type, converter: converter)
        {
            if let kind { kindsTold.note(kind, column: column) }
            return value
        }
        return try typing.typed(
            cells.value(column), at: cells.position(column), as: slot, checksStore: &lastChecksStore)
    }

    /// A cell's value where its slot's values name records: what a text of the same bytes
    /// resolved to before, or else resolved from its value (a text's value is its bytes' alone).
    private func resolvedReference<Cells: RecordCells>(_ cells: Cells, _ column: Int, as slot: RecordBuilder.Slot)
        throws -> RecordValue
    {
        if let known = cells.withTextBytes(column, { resolvedReferences[column].value(for: $0) }) ?? nil {
            columnsFoundAgain.append(column)
            return known
        }
        var checksStore = false
        let value = try typing.typed(
            cells.value(column), at: cells.position(column), as: slot, checksStore: &checksStore)
        if checksStore {
            lastChecksStore = true
        } else if resolvedReferences[column].count < RecordBuilder.Slot.resolvedReferenceLimit {
            _ = cells.withTextBytes(column) { resolvedReferences[column].insert($0, value: value) }
        }
        return value
    }

    /// The location the latitude and longitude cells make, as the slot's plan types it: straight
    /// from their bytes where both are numbers within range, from their values otherwise.
    private func location<Cells: RecordCells>(
        of cells: Cells, _ pair: (latitude: Int, longitude: Int), as slot: RecordBuilder.Slot
    ) throws -> RecordValue {
        if slot.field.type == .location, !slot.resolvesReferences,
            let value = cells.location(latitude: pair.latitude, longitude: pair.longitude, converter: converter)
        {
            return value
        }
        return try typing.typed(
            HeaderColumns.location(of: cells, pair), at: cells.position(pair.latitude), as: slot,
            checksStore: &lastChecksStore)
    }

}

/// The kinds a record's typing told of its cells (``RecordCells/typedByBytes(_:as:converter:)``), by
/// column: what the source's survey learns of those cells without reading them again
/// (``ColumnSurvey/add(_:except:kinds:)``). Each is stamped with the record it belongs to, so
/// that nothing is cleared between records, and is a plain byte, whose copies count no reference.
struct TypedCellKinds {
    private var kinds: [InferredKind.TextKind?]
    private var stamps: [Int]
    private var stamp = 0

    /// No kinds for a record of `columns` columns.
    init(columns: Int = 0) {
        kinds = Array(repeating: nil, count: columns)
        stamps = Array(repeating: 0, count: columns)
    }

    /// Forgets the last record's kinds.
    mutating func startRecord() { stamp += 1 }

    mutating func note(_ kind: InferredKind.TextKind, column: Int) {
        kinds[column] = kind
        stamps[column] = stamp
    }

    /// The kind the typing told of the record's cell in `column`, if it told one.
    func kind(of column: Int) -> InferredKind.TextKind? {
        column < stamps.count && stamps[column] == stamp ? kinds[column] : nil
    }
}
