/// A record's texts by column, where they name it: what its name column, its natural keys and
/// its name template are read from, one way whether the record comes as cells (``RecordCells``)
/// or as a row's fields.
protocol NamingTexts {
    /// How many columns the record has (fewer than a header's leave the last fields unset).
    var count: Int { get }
    /// The column's text where it names a record (``PlainValue/namingText`` of its value); `nil`
    /// where the record lacks the column or leaves it unset.
    func namingText(_ column: Int) -> String?
}

/// A row's fields name it by their values.
extension Array: NamingTexts where Element == SourceField {
    func namingText(_ column: Int) -> String? { self[column].value.namingText }
}

extension RecordNaming {
    /// The best-ranked name column among `columns` that `record` has a text in, and the text;
    /// `role` gives a column's rank and name (``nameColumnRole(rank:key:of:)``), `nil` for a column
    /// that names nothing.
    static func nameColumn<Texts: NamingTexts>(
        of record: Texts, among columns: some Sequence<Int>, role: (Int) -> (rank: Int, name: String)?
    ) -> (column: String, value: String)? {
        var best: (rank: Int, name: String, value: String)?
        for column in columns {
            guard let role = role(column), role.rank < best?.rank ?? Int.max, let text = record.namingText(column)
            else { continue }
            best = (role.rank, role.name, text)
        }
        return best.map { ($0.name, $0.value) }
    }
}
