/// What a run's rows tell about its record types, type by type, as they are read: each type's
/// ``TypeSurvey``, made at its first row. ``RecordMapper/survey(_:store:scope:firstRows:)`` fills
/// one in pass one; where the plan was guessed from the first rows, the pass that writes fills one
/// too (``RecordMapper/forEachRecord(_:plan:surveying:rowsReadAhead:assets:rejected:encoders:record:)``),
/// so that the plan all the rows decide can be checked against the guess
/// (``RecordMapper/decide(_:sources:store:scope:)``).
///
/// It is taken in by one thread at a time: a class only so that the pass that writes can hand it
/// to the thread that names its rows. Its members are the mapper's own.
package final class RunSurvey {
    private var surveys: [String: TypeSurvey] = [:]
    /// The survey of the last row's type, kept out of ``surveys`` while rows of that type follow
    /// one another, so that a row does not hash its type's name twice to find it. One thread at a
    /// time takes rows in, so its accesses are not checked for overlap at run time.
    @exclusivity(unchecked) private var current: (type: String, survey: TypeSurvey)?
    /// The types a field's name may point to, growing as rows name new types.
    private var pointable: PointableTypes
    /// Those known when the run starts: what a source's columns are surveyed with where it is read as cells.
    private let pointableAtStart: PointableTypes
    private let options: MappingOptions
    /// The folder each source's asset paths start from, by source number.
    private let folders: [String]

    /// A survey of `sources`' rows, whose default record types are `sourceTypes` and whose asset
    /// paths start from `folders`; `schema` is the store's.
    init(options: MappingOptions, schema: Schema, sourceTypes: [String], folders: [String]) {
        self.options = options
        self.folders = folders
        pointable = PointableTypes(
            Set(schema.recordTypes.keys).union(options.references.compactMap(\.target)).union(sourceTypes)
                .union(options.modelMapping?.linkTargets ?? []))
        pointableAtStart = pointable
    }

    /// Takes in a top-level row of source number `source`, with its child rows; `keyName` is the
    /// name one of its natural keys gives it (``RecordNaming/recordName(from:)``), where made already.
    func add(_ row: PreparedRow, source: Int, keyName: (key: String, name: String)? = nil) throws {
        try add(row, isChild: false, source: source, keyName: keyName)
    }

    private func add(_ row: PreparedRow, isChild: Bool, source: Int, keyName: (key: String, name: String)?) throws {
        try withSurvey(of: row.recordType, firstPosition: row.position) {
            try $0.add(
                row, isChild: isChild, source: source, keyName: keyName, assetFolder: folders[source],
                mayPointToType: pointable.mayPoint(from:))
        }
        for child in row.children { try add(child.row, isChild: true, source: source, keyName: nil) }
    }

    /// Takes in a record of source number `source` whose cells were surveyed where it was
    /// read (``merge(_:type:)``), named as the plan names its type's records
    /// (``NamingSurvey/add(nameColumn:key:name:source:)``): `name` is its name, `nil` where it is
    /// named by position.
    func add(_ record: TypedRecord, key: String?, nameColumn: String?, name: String?, source: Int) {
        withSurvey(of: record.recordType, firstPosition: record.position) {
            $0.add(nameColumn: nameColumn, key: key, name: name, source: source)
        }
    }

    /// Takes in the fields of a source of `type` read as cells, surveyed column by column where its records were read.
    func merge(_ columns: ColumnSurvey, type: String) {
        putBackCurrent()
        surveys[type]?.merge(columns, mayPointToType: pointable.mayPoint(from:))
    }

    /// An empty survey of the fields of a source's `columns` (read as cells), for its reading thread.
    func columnSurvey(of columns: HeaderColumns, source: Int) -> ColumnSurvey {
        ColumnSurvey(
            columns: columns, assetFolder: folders[source], mayPointToType: pointableAtStart.mayPoint(from:))
    }

    /// Hands over the surveys by record type, keeping none: a second reference to them would have
    /// every name mark copied when the decisions sort them.
    func takeSurveys() -> [String: TypeSurvey] {
        putBackCurrent()
        defer { surveys = [:] }
        return surveys
    }

    /// Lends `body` the survey of `type`, made at its first row (at `firstPosition`).
    private func withSurvey(of type: String, firstPosition: SourcePosition, _ body: (inout TypeSurvey) throws -> Void)
        rethrows
    {
        if current?.type != type {
            putBackCurrent()
            if let known = surveys.removeValue(forKey: type) {
                current = (type, known)
            } else {
                if pointable.insert(type) {
                    for other in surveys.values { pointable.markMissedValues(of: other) }
                }
                current = (
                    type,
                    TypeSurvey(
                        firstRowPosition: firstPosition,
                        naming: NamingSurvey(
                            recordType: type, template: options.template(for: type),
                            randomNames: options.randomNames))
                )
            }
        }
        try body(&current!.survey)
    }

    /// Moves the current survey back among the others, not copied with every name mark it holds.
    private func putBackCurrent() {
        guard let (type, survey) = current.take() else { return }
        surveys[type] = consume survey
    }
}
