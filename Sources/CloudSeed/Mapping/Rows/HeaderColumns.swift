/// A header whose records both passes take cell by cell (``RecordCells``), without a ``SourceRow``
/// or a ``PreparedRow`` of fields: what ``RowPreparation`` would make of a record, worked out from
/// its cells and the facts of each column, found once per source. A CSV source's header is its
/// first row; a JSON Lines source's or a JSON array's, the keys of its first record (``FlatJSONRecord``).
///
/// It takes a plain header only, where preparing a record keeps its cells as they are: every
/// column a field name already or a record's identity only (`recordName`, `recordChangeTag`), no
/// declared types (`price:DOUBLE`), at most one latitude and one longitude column and no `location`
/// column, no declared locations for the type, and a column for each field its name template names,
/// where it has one. Then a record's fields are its set cells in column order but for the identity
/// columns, which are no fields, and a latitude and a longitude that are both set, which make one
/// `location` field, put last.
struct HeaderColumns {
    /// The field name of each column.
    let names: [String]
    let facts: [ColumnRoles]
    /// Whether each column is a field: not one that is the record's identity only.
    let isField: [Bool]
    /// The name columns: the best-ranked that a record sets names it, whatever rule names the
    /// type's other records.
    let nameColumns: [Int]
    /// Each column's rank and name as a name column (``RecordNaming/nameColumnRole(rank:key:of:)``).
    private let nameColumnRoles: [(rank: Int, name: String)?]
    /// The type's name template, where it has one, with the column of each field it names.
    let template: TemplateColumns?
    /// The `recordChangeTag` column, whose text is the record's change tag.
    let changeTag: Int?
    /// The latitude and longitude columns.
    let latitude: Int?
    let longitude: Int?

    /// The columns of `header` for records of `recordType`; `nil` where records need preparing.
    init?(header: CSVHeader, recordType: String, options: MappingOptions) {
        guard options.locations(for: recordType).isEmpty,
            header.columns.allSatisfy({ $0.type == nil })
        else { return nil }
        let facts = header.columns.map { ColumnRoles(of: $0.name, findsLocations: options.modelMapping == nil) }
        guard facts.allSatisfy({ $0.isValidIdentifier || $0.isIdentityOnly }) else { return nil }
        let latitudes = facts.indices.filter { facts[$0].locationRole == .latitude }
        let longitudes = facts.indices.filter { facts[$0].locationRole == .longitude }
        guard latitudes.count <= 1, longitudes.count <= 1, !facts.contains(where: { $0.locationRole == .location })
        else { return nil }
        names = header.columns.map(\.name)
        if let template = options.template(for: recordType) {
            var parts: [TemplatePart<Int>] = []
            for part in template.parts {
                switch part {
                case .text(let text): parts.append(.text(text))
                case .field(let placeholder):
                    guard
                        let column = names.firstIndex(of: placeholder)
                            ?? names.firstIndex(of: IdentifierMapping.identifier(for: placeholder))
                    else { return nil }
                    parts.append(.field(column))
                }
            }
            self.template = TemplateColumns(parts: parts)
        } else {
            template = nil
        }
        self.facts = facts
        isField = facts.map { !$0.isIdentityOnly }
        var roles: [(rank: Int, name: String)?] = []
        for (fact, name) in zip(facts, header.columns.map(\.name)) {
            roles.append(RecordNaming.nameColumnRole(rank: fact.nameColumnRank, key: name, of: recordType))
        }
        nameColumnRoles = roles
        nameColumns = roles.indices.filter { roles[$0] != nil }
        changeTag = names.firstIndex(of: "recordChangeTag")
        latitude = latitudes.first
        longitude = longitudes.first
    }

    /// The columns of a prepared row's fields, named `fieldNames` in their order: fields already,
    /// their location made, named by the name each row is given.
    init(fieldNames: [String]) {
        names = fieldNames
        facts = fieldNames.map { ColumnRoles(of: $0) }
        isField = Array(repeating: true, count: fieldNames.count)
        nameColumns = []
        nameColumnRoles = []
        template = nil
        changeTag = nil
        latitude = nil
        longitude = nil
    }

    /// The latitude and longitude columns where the record sets both: they make its `location`.
    func pair<Cells: RecordCells>(in record: Cells) -> (latitude: Int, longitude: Int)? {
        guard let latitude, let longitude, record.isSet(latitude), record.isSet(longitude) else { return nil }
        return (latitude, longitude)
    }

    /// The record's `location` field's value, made of the pair.
    static func location<Cells: RecordCells>(of record: Cells, _ pair: (latitude: Int, longitude: Int)) -> PlainValue {
        LocationKeys.location(latitude: record.value(pair.latitude), longitude: record.value(pair.longitude))
    }

    /// The row that names a record (the `ordinal`-th of its source, starting at `position`) in
    /// the first pass: its name column and natural keys, its fields left in the cells.
    func namingRow<Cells: RecordCells>(of record: Cells, recordType: String, at position: SourcePosition, ordinal: Int)
        -> PreparedRow
    {
        PreparedRow(
            recordType: recordType, nameColumn: nameColumn(of: record), fields: [],
            naturalKeys: naturalKeys(of: record), templateValues: template?.values(of: record, names: names) ?? [:],
            position: position, ordinal: ordinal, children: [])
    }

    /// The record's natural-key texts by key (``NaturalKeys``).
    func naturalKeys<Cells: RecordCells>(of record: Cells) -> [(String, String)] {
        NaturalKeys.keys(of: record, columns: min(record.count, names.count), name: { names[$0] }, facts: { facts[$0] })
    }

    /// The record's best-ranked name column (``RecordNaming/nameColumns``) that has a text, and the text.
    func nameColumn<Cells: RecordCells>(of record: Cells) -> (column: String, value: String)? {
        RecordNaming.nameColumn(of: record, among: nameColumns) { nameColumnRoles[$0] }
    }
}

/// A name template (`{catalogNumber} {artist}`) with the column each of its fields comes from.
struct TemplateColumns {
    let parts: [TemplatePart<Int>]

    /// The filled template, as ``TemplateNaming`` fills it from the record's row; `nil` where the
    /// record leaves a field it names unset.
    func text<Cells: RecordCells>(of record: Cells) -> String? {
        TemplateNaming.fill(parts) { record.namingText($0) }
    }

    /// The values of the fields it names, by column name, as a row's template values
    /// (``PreparedRow/templateValues``).
    func values<Cells: RecordCells>(of record: Cells, names: [String]) -> [String: PlainValue] {
        var values: [String: PlainValue] = [:]
        for case .field(let column) in parts where column < record.count && record.isSet(column) {
            values[names[column]] = record.value(column)
        }
        return values
    }
}
