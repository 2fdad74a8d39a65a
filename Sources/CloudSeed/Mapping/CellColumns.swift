/// A header whose records both passes take cell by cell (``FlatCells``), without a ``SourceRow``
/// or a ``PreparedRow`` of fields: what ``RowPreparation`` would make of a record, worked out from
/// its cells and the facts of each column, found once per source. A CSV source's header is its
/// first row; a JSON Lines source's or a JSON array's, the keys of its first record (``FlatJSONRecord``).
///
/// It takes a plain header only, where preparing a record keeps its cells as they are: every
/// column a field name already and not a record's identity only (`recordName`), no declared types
/// (`price:DOUBLE`), at most one latitude and one longitude column and no `location` column, and
/// neither name templates nor declared locations for the type. Then a record's fields are its set
/// cells in column order, but a latitude and a longitude that are both set, which make one
/// `location` field, put last.
struct CellColumns {
    /// The field name of each column.
    let names: [String]
    let facts: [ColumnRoles]
    /// The latitude and longitude columns.
    let latitude: Int?
    let longitude: Int?

    /// The columns of `header` for records of `recordType`; `nil` where records need preparing.
    init?(header: CSVHeader, recordType: String, options: MappingOptions) {
        guard options.nameTemplates.isEmpty, options.locations(for: recordType).isEmpty,
            header.columns.allSatisfy({ $0.type == nil })
        else { return nil }
        let facts = header.columns.map { ColumnRoles(of: $0.name) }
        guard facts.allSatisfy({ $0.isValidIdentifier && !$0.isIdentityOnly }) else { return nil }
        let latitudes = facts.indices.filter { facts[$0].locationRole == .latitude }
        let longitudes = facts.indices.filter { facts[$0].locationRole == .longitude }
        guard latitudes.count <= 1, longitudes.count <= 1, !facts.contains(where: { $0.locationRole == .location })
        else { return nil }
        names = header.columns.map(\.name)
        self.facts = facts
        latitude = latitudes.first
        longitude = longitudes.first
    }

    /// The latitude and longitude columns where the record sets both: they make its `location`.
    func pair<Cells: FlatCells>(in record: Cells) -> (latitude: Int, longitude: Int)? {
        guard let latitude, let longitude, record.isSet(latitude), record.isSet(longitude) else { return nil }
        return (latitude, longitude)
    }

    /// The record's `location` field's value, made of the pair.
    static func location<Cells: FlatCells>(of record: Cells, _ pair: (latitude: Int, longitude: Int)) -> PlainValue {
        LocationKeys.location(latitude: record.value(pair.latitude), longitude: record.value(pair.longitude))
    }

    /// The row that names a record (the `ordinal`-th of its source, starting at `position`) in
    /// the first pass: its name column and natural keys, its fields left in the cells.
    func namingRow<Cells: FlatCells>(of record: Cells, recordType: String, at position: SourcePosition, ordinal: Int)
        -> PreparedRow
    {
        PreparedRow(
            recordType: recordType, nameColumn: nameColumn(of: record), fields: [],
            naturalKeys: naturalKeys(of: record), templateValues: [:],
            position: position, ordinal: ordinal, children: [])
    }

    /// The record's natural-key texts by key, as ``NaturalKeys/keys(of:facts:)`` finds them in its fields.
    func naturalKeys<Cells: FlatCells>(of record: Cells) -> [(String, String)] {
        var keys: [(String, String)] = []
        var first: (String, String)?
        var last: (String, String)?
        for column in 0..<min(record.count, names.count) {
            guard let role = facts[column].naturalKeyRole, let text = record.namingText(column) else { continue }
            switch role {
            case .key: keys.append((names[column], text))
            case .firstName: first = (names[column], text)
            case .lastName: last = (names[column], text)
            }
        }
        if let first, let last { keys.append(("{\(first.0)} {\(last.0)}", "\(first.1) \(last.1)")) }
        return keys
    }

    /// The record's best-ranked name column (``RecordNaming/nameColumns``) that has a text, and the text.
    func nameColumn<Cells: FlatCells>(of record: Cells) -> (column: String, value: String)? {
        var best: (rank: Int, value: String)?
        for column in 0..<min(record.count, names.count) {
            guard let rank = facts[column].nameColumnRank, rank < best?.rank ?? Int.max,
                let text = record.namingText(column)
            else { continue }
            best = (rank, text)
        }
        return best.map { (RecordNaming.nameColumns[$0.rank], $0.value) }
    }
}
