/// Pass two's shortest way for the records of a source that come as cells (``FlatCells``): a
/// record's cells typed straight into a ``FlatRecord`` where they are read, without a
/// ``SourceRow`` or a ``PreparedRow`` in between.
///
/// It gives each record what the general way would (the reader's row, then ``RowPreparation``'s
/// flat row, ``RowNaming`` and ``FlatRowTyping``): the same fields (``CellColumns``), the same
/// name. It takes the sources whose header ``CellColumns`` takes and whose type is named by a name
/// column (`recordName`), a column's natural key or by position, and returns `nil` for a record
/// whose cells it cannot type: the general way takes that one and words its errors.
///
/// ```
/// catalogNumber,title,latitude,longitude      → Artwork "Harbor at Dusk":
/// 115,Harbor at Dusk,59.33,18.07                  catalogNumber INT64 115, title STRING,
///                                                 location LOCATION (59.33, 18.07)
/// ```
final class FlatCellTyping {
    private let recordType: String
    private let columns: CellColumns
    private let typing: FlatRowTyping
    /// Each column's slot among the record's values; `nil` for a column the plan leaves out.
    private let slots: [FlatRowTyping.Slot?]
    /// ``slots``, which hold them, lent to the typing of each cell without a reference counted for
    /// it: the loop retained and released the shared slot for every cell, in atomic operations.
    private let lentSlots: [Unmanaged<FlatRowTyping.Slot>?]
    private let slotCount: Int
    private let locationSlot: FlatRowTyping.Slot?
    private let naming: Naming
    /// The store's encoding of the records' values, where it encodes them where they are typed.
    private let encoder: NewRecordEncoder?
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
    /// (``CellColumnSurvey/add(_:except:kinds:)``).
    @exclusivity(unchecked) private(set) var columnsFoundAgain: [Int] = []
    /// The kinds the typing of the last record's cells told (``TextKindsTold``).
    @exclusivity(unchecked) private(set) var kindsTold: TextKindsTold
    /// What is left to make of the last record's name, on the thread that names records.
    @exclusivity(unchecked) private(set) var lastNameToMake = NameToMake.done

    /// What is left to make of a record's name once typed: transliterating a text is much of the
    /// work of typing the record, and a random name needs the row's number among its type's rows
    /// of the run; both are done on the thread that names and writes records, in place.
    enum NameToMake: UInt8 {
        /// Named by position: `Type-N`.
        case done
        /// The name is still the text it is made of (a name column's, a natural key's, a filled template).
        case byText
        /// `--uuid`: a random name for the row's number among its type's rows.
        case random

        /// Makes the name of `record`, the `rowNumber`-th (from 0) of its type, as `naming` names its row.
        func make(_ record: inout FlatRecord, rowNumber: Int, naming: RowNaming) {
            switch self {
            case .done: return
            case .byText: record.recordName = RecordNaming.recordName(from: record.recordName)
            case .random: record.recordName = naming.randomName(of: record.recordType, rowNumber: rowNumber)
            }
        }
    }

    /// How a record gets its name: ``RowNaming``'s rules that read cells only.
    private enum Naming {
        /// The text of a natural-key column (`title`).
        case column(Int)
        /// A person's name: the first-name and last-name columns' texts, joined by a space.
        case person(first: Int, last: Int)
        /// The type's name template, filled from the cells; before any name column.
        case template(TemplateColumns)
        /// `--uuid`, where a name column does not name the record.
        case random
        case position
    }

    /// The typing of `header`'s records of `recordType`, whose values `encoder` encodes, where
    /// given; `nil` where the general way must take them.
    init?(
        header: CSVHeader, recordType: String, plan: ImportPlan, options: MappingOptions, typing: FlatRowTyping,
        encoder: NewRecordEncoder? = nil
    ) {
        guard let typeSlots = typing.slots(of: recordType), let rule = plan.naming.rules[recordType],
            plan.rowErrors[recordType] == nil,
            let columns = CellColumns(header: header, recordType: recordType, options: options)
        else { return nil }
        let names = columns.names
        let facts = columns.facts
        switch rule {
        // A record that sets no name column is named by position (``RowNaming``).
        case .position, .column:
            naming = .position
        case .template:
            guard let template = columns.template else { return nil }
            naming = .template(template)
        case .uuid:
            naming = .random
        case .naturalKey(let key):
            if let column = names.firstIndex(of: key), facts[column].naturalKeyRole == .key {
                naming = .column(column)
            } else {
                let firsts = facts.indices.filter { facts[$0].naturalKeyRole == .firstName }
                let lasts = facts.indices.filter { facts[$0].naturalKeyRole == .lastName }
                guard firsts.count == 1, lasts.count == 1, key == "{\(names[firsts[0]])} {\(names[lasts[0]])}" else {
                    return nil
                }
                naming = .person(first: firsts[0], last: lasts[0])
            }
        default:
            return nil
        }
        self.recordType = recordType
        self.columns = columns
        self.typing = typing
        slots = names.map { typeSlots[$0] }
        lentSlots = slots.map { $0.map(Unmanaged.passUnretained) }
        resolvedReferences = Array(repeating: ByteKeyedValues(), count: names.count)
        kindsTold = TextKindsTold(columns: names.count)
        slotCount = typeSlots.count
        locationSlot = typeSlots[LocationKeys.field]
        self.encoder = encoder
        lastValues = Array(repeating: nil, count: encoder == nil ? 0 : typeSlots.count)
        lastTextRanges = Array(repeating: nil, count: encoder == nil ? 0 : typeSlots.count)
        // Not the column whose text names the record: its `String` is the name.
        let namingColumn: Int? = if case .column(let column) = naming { column } else { nil }
        textPlaces = slots.indices.map { [slots] column in
            guard encoder != nil, column != namingColumn, let slot = slots[column], slot.field.type == .string,
                !slot.resolvesReferences,
                slot.field.action == .none
            else { return nil }
            return slot.index
        }
    }

    /// The record a record's cells make (starting at `position`, the `ordinal`-th of its source,
    /// from 1); `nil` for one the general way must take. Where a text names it, its name is that
    /// text, still to be made a record name (``lastNameToMake``).
    func record<Cells: FlatCells>(of cells: Cells, at position: SourcePosition, ordinal: Int) -> FlatRecord? {
        columnsFoundAgain.removeAll(keepingCapacity: true)
        kindsTold.startRecord()
        let paired = columns.pair(in: cells)
        // The size the record's values take, `nil` where a cell could not be typed.
        var size: Int?
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
        guard let size, size <= RecordLimits.maximumRecordSize else { return nil }
        // A name column a record sets names it, whatever the rule but a template.
        let ownName = columns.nameColumn(of: cells)?.value
        let nameText: String?
        if case .template(let template) = naming {
            // A record the template cannot name is left to the general way, which words why.
            guard let text = template.text(of: cells) else { return nil }
            nameText = text
        } else if let ownName {
            nameText = ownName
        } else {
            nameText =
                switch naming {
                case .column(let column): typedText(values, column) ?? cells.namingText(column)
                case .person(let first, let last):
                    cells.namingText(first).flatMap { first in cells.namingText(last).map { "\(first) \($0)" } }
                case .position, .template, .random: nil
                }
        }
        lastNameToMake =
            if nameText != nil { .byText } else if case .random = naming { .random } else { .done }
        let name = nameText ?? "\(recordType)-\(ordinal)"
        guard let encoder else {
            return FlatRecord(recordType: recordType, recordName: name, values: values, position: position)
        }
        if let encoded = encoder.encoded(values, textBytes: lastTexts, textRanges: lastTextRanges) {
            return FlatRecord(
                recordType: recordType, recordName: name, values: [], position: position, encodedValues: encoded)
        }
        // A value the store cannot keep: the record keeps its values, its texts made values too,
        // and its save refuses it in the store's words.
        var kept = values
        for (place, range) in lastTextRanges.enumerated() {
            if let range { kept[place] = .string(String(decoding: lastTexts[range], as: UTF8.self)) }
        }
        return FlatRecord(recordType: recordType, recordName: name, values: kept, position: position)
    }

    /// Keeps a STRING cell's bytes as the text of the value at `place`; returns how many there are.
    private func keepText(_ bytes: UnsafeBufferPointer<UInt8>, place: Int) -> Int {
        let start = lastTexts.count
        lastTexts.append(contentsOf: bytes)
        lastTextRanges[place] = start..<lastTexts.count
        return bytes.count
    }

    /// Types the record's cells into their values' places (a STRING cell whose text goes to the
    /// encoder as its bytes, into ``lastTexts``); returns the size the values take, `nil` where a
    /// cell could not be typed.
    private func type<Cells: FlatCells>(
        _ cells: Cells, paired: (latitude: Int, longitude: Int)?, into values: UnsafeMutableBufferPointer<RecordValue?>
    ) -> Int? {
        var size = 0
        for column in 0..<min(cells.count, slots.count) where cells.isSet(column) {
            guard column != paired?.latitude, column != paired?.longitude, let slot = lentSlots[column] else {
                continue
            }
            if let place = textPlaces[column], let count = cells.withTextBytes(column, { keepText($0, place: place) }) {
                size += count
                continue
            }
            let typedCell = slot._withUnsafeGuaranteedRef { slot in
                guard let value = typed(cells, column, as: slot) else { return false }
                size += value.encodedSize
                values[slot.index] = consume value  // moved, not copied: no reference counted twice
                return true
            }
            guard typedCell else { return nil }
        }
        if let paired, let locationSlot {
            guard let value = location(of: cells, paired, as: locationSlot) else { return nil }
            size += value.encodedSize
            values[locationSlot.index] = consume value
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
    /// (a CSV cell's number or date), else from its value, as the general way.
    private func typed<Cells: FlatCells>(_ cells: Cells, _ column: Int, as slot: FlatRowTyping.Slot) -> RecordValue? {
        if slot.resolvesReferences { return resolvedReference(cells, column, as: slot) }
        // Dates read otherwise than the default way (``DateReading``) are read from their values.
        if slot.field.dateReading == nil,
            case (let value, let kind)? = cells.typedByBytes(column, as: slot.field.type, converter: typing.converter)
        {
            if let kind { kindsTold.note(kind, column: column) }
            return value
        }
        return typing.typed(cells.value(column), at: cells.position(column), as: slot)
    }

    /// A cell's value where its slot's values name records: what a text of the same bytes
    /// resolved to before, or else resolved from its value (a text's value is its bytes' alone).
    private func resolvedReference<Cells: FlatCells>(_ cells: Cells, _ column: Int, as slot: FlatRowTyping.Slot)
        -> RecordValue?
    {
        if let known = cells.withTextBytes(column, { resolvedReferences[column].value(for: $0) }) ?? nil {
            columnsFoundAgain.append(column)
            return known
        }
        guard let value = typing.typed(cells.value(column), at: cells.position(column), as: slot) else { return nil }
        if resolvedReferences[column].count < FlatRowTyping.Slot.resolvedReferenceLimit {
            _ = cells.withTextBytes(column) { resolvedReferences[column].insert($0, value: value) }
        }
        return value
    }

    /// The location the latitude and longitude cells make, as the slot's plan types it: straight
    /// from their bytes where both are numbers within range, from their values otherwise.
    private func location<Cells: FlatCells>(
        of cells: Cells, _ pair: (latitude: Int, longitude: Int), as slot: FlatRowTyping.Slot
    ) -> RecordValue? {
        if slot.field.type == .location, !slot.resolvesReferences,
            let value = cells.location(latitude: pair.latitude, longitude: pair.longitude, converter: typing.converter)
        {
            return value
        }
        return typing.typed(CellColumns.location(of: cells, pair), at: cells.position(pair.latitude), as: slot)
    }

}

/// The kinds a record's typing told of its cells (``FlatCells/typedByBytes(_:as:converter:)``), by
/// column: what the source's survey learns of those cells without reading them again
/// (``CellColumnSurvey/add(_:except:kinds:)``). Each is stamped with the record it belongs to, so
/// that nothing is cleared between records, and is a plain byte, whose copies count no reference.
struct TextKindsTold {
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
