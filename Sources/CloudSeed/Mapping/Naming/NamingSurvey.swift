/// What the first pass learns about naming one record type's rows, without keeping the rows or
/// their names: for each rule that could still be chosen, the names it would give as ``DuplicateNameFinder``.
/// That is enough to choose the rule and to find the rows that would
/// share a name; a later pass names each row again from the row itself.
struct NamingSurvey {
    let recordType: String
    /// The `--name-template` of the type, which then is the only rule considered.
    let template: NameTemplate?
    let randomNames: Bool

    /// Rows not inside another row: the rows that are named by the rules.
    private(set) var topLevelRows = 0
    private var rowsWithoutGivenName = 0
    private var nameColumn: String?
    private var nameColumnConsistent = true
    /// The rules still in the running but natural keys, with the names each would give.
    private var candidates: [NamingRule: DuplicateNameFinder] = [:]
    /// The natural keys every row so far has, in the order first met, with the names each would give.
    private var naturalKeys: [(key: String, marks: DuplicateNameFinder)] = []
    /// Rows whose natural keys wait for ICU to compile the rules of a script it meets for the
    /// first time (``Transliteration/isReady(_:)``), with every row after them: marked, in order,
    /// once it is done, so that the survey goes on meanwhile.
    private var waitingNaturalKeys: [(keys: [(String, String)], rowNumber: Int)] = []
    /// How many rows may wait: then the survey waits for ICU instead.
    private static let waitingLimit = 65_536
    /// Top-level rows per source, in the order the sources are read, for names by position.
    private var rowsPerSource: [Int] = []
    private var lastTopLevelSource: Int?
    private var lastSource: Int?
    /// The sources that hold rows of the type, by number.
    private(set) var sources: Set<Int> = []
    /// Rows the template cannot name: row number and the row's position.
    private(set) var unnamedRows: [(row: Int, position: SourcePosition)] = []
    /// Rows the template names otherwise than their source does: row number, position, the name
    /// the source gives and the template's.
    private(set) var renamedRows: [(row: Int, position: SourcePosition, given: String, template: String)] = []

    /// Top-level rows whose source gives them a name (``PreparedRow/ownName``), which they keep
    /// whatever rule names the rest.
    private(set) var rowsWithOwnName = 0

    init(recordType: String, template: NameTemplate?, randomNames: Bool) {
        self.recordType = recordType
        self.template = template
        self.randomNames = randomNames
    }

    /// Takes in a row; `source` numbers the source it comes from. `keyName` is the name one of its
    /// natural keys gives it (``RecordNaming/recordName(from:)``), where made already.
    mutating func add(_ row: PreparedRow, isChild: Bool, source: Int, keyName: (key: String, name: String)? = nil) {
        guard
            let rowNumber = count(
                givenName: row.givenName != nil, nameColumn: row.nameColumn?.column, isChild: isChild, source: source)
        else { return }
        if row.ownName != nil { rowsWithOwnName += 1 }
        guard !randomNames else { return }
        if let template {
            if let name = RowNaming.name(of: row, rule: .template(template), rowNumber: rowNumber, randomSeed: 0) {
                candidates[.template(template), default: DuplicateNameFinder()].add(name, row: rowNumber)
                if let given = row.givenName.map(RecordNaming.recordName(from:)), given != name {
                    renamedRows.append((rowNumber, row.position, given, name))
                }
            } else {
                unnamedRows.append((rowNumber, row.position))
            }
            return
        }
        if rowsWithoutGivenName == 0 {
            mark(row, rule: .fromSource, rowNumber: rowNumber)
        } else {
            candidates[.fromSource] = nil
        }
        if nameColumnConsistent, let nameColumn { mark(row, rule: .column(nameColumn), rowNumber: rowNumber) }
        if let own = row.ownName {
            // The row keeps its name under any key: marked as that name, and no key drops out for it.
            let name = RecordNaming.recordName(from: own)
            if !waitingNaturalKeys.isEmpty { markWaitingNaturalKeys() }
            let keys = rowNumber == 0 ? row.naturalKeys.map(\.0) : naturalKeys.map(\.key)
            markNaturalKeys(names: keys.map { ($0, name) }, rowNumber: rowNumber)
        } else {
            noteNaturalKeys(row.naturalKeys, rowNumber: rowNumber, keyName: keyName)
        }
    }

    /// Takes in a top-level row without a given name, named as the plan names its type's rows:
    /// `name` is its name (``RecordNaming/recordName(from:)``), `nil` where the plan names it by
    /// position. That is the text of `nameColumn` where the row has one (a name of its own), else
    /// its template's, else that of its natural key `key`, the plan's (the only one asked about).
    ///
    /// What the survey then decides is the same as from the whole row where it chooses the
    /// plan's rule: another natural key can only be chosen where the plan's is not (a key drops
    /// out at a row that lacks it, and one with a repeated name is never chosen), and a name
    /// column, a template or names by position need no key.
    mutating func add(nameColumn column: String?, key: String?, name: String?, source: Int) {
        guard let rowNumber = count(givenName: false, nameColumn: column, isChild: false, source: source) else {
            return
        }
        if column != nil { rowsWithOwnName += 1 }
        guard !randomNames else { return }
        if let template {
            if let name { candidates[.template(template), default: DuplicateNameFinder()].add(name, row: rowNumber) }
            return
        }
        candidates[.fromSource] = nil
        if column != nil, nameColumnConsistent, let nameColumn, let name {
            candidates[.column(nameColumn), default: DuplicateNameFinder()].add(name, row: rowNumber)
        }
        if !waitingNaturalKeys.isEmpty { markWaitingNaturalKeys() }
        guard let key, let name else { return naturalKeys.removeAll() }
        // The one key, as markNaturalKeys(names:rowNumber:) takes it, without an array per row.
        if naturalKeys.count == 1, naturalKeys[0].key == key {
            naturalKeys[0].marks.add(name, row: rowNumber)
        } else {
            markNaturalKeys(names: [(key, name)], rowNumber: rowNumber)
        }
    }

    /// Counts a row, with whether it has a name of its own and the name column it has; the row's
    /// number among the top-level rows, `nil` for a child row.
    private mutating func count(givenName: Bool, nameColumn column: String?, isChild: Bool, source: Int) -> Int? {
        if lastSource != source {
            lastSource = source
            sources.insert(source)
        }
        // A child row is named after its parent row, whatever rule names the type's other rows.
        guard !isChild else { return nil }
        if !givenName { rowsWithoutGivenName += 1 }
        if topLevelRows == 0 { nameColumn = column }
        if nameColumnConsistent, nameColumn != column {
            nameColumnConsistent = false
            candidates[.column(nameColumn ?? "")] = nil
        }
        let rowNumber = topLevelRows
        topLevelRows += 1
        if lastTopLevelSource != source {
            lastTopLevelSource = source
            rowsPerSource.append(0)
        }
        rowsPerSource[rowsPerSource.count - 1] += 1
        return rowNumber
    }

    /// Marks a row's natural keys now, or after the rows waiting for ICU; the one of `keyName` by
    /// the name given.
    private mutating func noteNaturalKeys(
        _ keys: [(String, String)], rowNumber: Int, keyName: (key: String, name: String)?
    ) {
        guard waitingNaturalKeys.isEmpty, keys.allSatisfy({ $0.0 == keyName?.key || Transliteration.isReady($0.1) })
        else {
            waitingNaturalKeys.append((keys, rowNumber))
            if Transliteration.isWarm || waitingNaturalKeys.count >= Self.waitingLimit { markWaitingNaturalKeys() }
            return
        }
        markNaturalKeys(
            names: keys.map { ($0.0, $0.0 == keyName?.key ? keyName!.name : RecordNaming.recordName(from: $0.1)) },
            rowNumber: rowNumber)
    }

    /// Marks the rows waiting for ICU, in order (waiting for it if need be).
    private mutating func markWaitingNaturalKeys() {
        for (keys, rowNumber) in waitingNaturalKeys { markNaturalKeys(keys, rowNumber: rowNumber) }
        waitingNaturalKeys.removeAll()
    }

    /// Notes the names the row's natural keys give (key and text).
    private mutating func markNaturalKeys(_ keys: [(String, String)], rowNumber: Int) {
        markNaturalKeys(names: keys.map { ($0.0, RecordNaming.recordName(from: $0.1)) }, rowNumber: rowNumber)
    }

    /// Notes the names a row's natural keys give (key and name). Only the first row's keys are
    /// candidates, and a key drops out at the first row that lacks it: a natural key must name every row.
    private mutating func markNaturalKeys(names: [(String, String)], rowNumber: Int) {
        naturalKeys.removeAll { candidate in !names.contains { $0.0 == candidate.key } }
        for (key, name) in names {
            if let index = naturalKeys.firstIndex(where: { $0.key == key }) {
                naturalKeys[index].marks.add(name, row: rowNumber)
            } else if rowNumber == 0 {
                var marks = DuplicateNameFinder()
                marks.add(name, row: rowNumber)
                naturalKeys.append((key, marks))
            }
        }
    }

    private mutating func mark(_ row: PreparedRow, rule: NamingRule, rowNumber: Int) {
        guard let name = RowNaming.name(of: row, rule: rule, rowNumber: rowNumber, randomSeed: 0) else { return }
        candidates[rule, default: DuplicateNameFinder()].add(name, row: rowNumber)
    }

    /// Chooses the rule, in its order of preference; a natural key only where its names are unique.
    mutating func chooseRule() -> NamingRule {
        markWaitingNaturalKeys()
        if randomNames { return .uuid }
        if let template { return .template(template) }
        if topLevelRows == 0 { return .parent }
        if rowsWithoutGivenName == 0 { return .fromSource }
        if nameColumnConsistent, let nameColumn { return .column(nameColumn) }
        let present = naturalKeys.map(\.key)
        let preferred = NaturalKeys.fields + present.filter { $0.hasPrefix("{") }.sorted()
        for candidate in preferred {
            guard let index = present.firstIndex(where: { $0.lowercased() == candidate.lowercased() }) else { continue }
            if naturalKeys[index].marks.duplicates().isEmpty { return .naturalKey(present[index]) }
        }
        return .position
    }

    /// The rows `rule` would give a name an earlier row has: (earlier row, later row), by later row.
    mutating func duplicates(under rule: NamingRule) -> [(first: Int, second: Int)] {
        markWaitingNaturalKeys()
        switch rule {
        case .uuid, .parent, .linkedPair: return []
        case .position: return positionDuplicates()
        case .naturalKey(let key):
            guard let index = naturalKeys.firstIndex(where: { $0.key == key }) else { return [] }
            return naturalKeys[index].marks.duplicates()
        default: return candidates[rule]?.duplicates() ?? []
        }
    }

    /// The names `rule` gives, as marks sorted by ``duplicates(under:)``, which must come first;
    /// `nil` where the rule's names are not kept (by position, by parent, UUIDs).
    func marks(under rule: NamingRule) -> DuplicateNameFinder? {
        switch rule {
        case .uuid, .parent, .position, .linkedPair: nil
        case .naturalKey(let key): naturalKeys.first { $0.key == key }?.marks
        default: candidates[rule]
        }
    }

    /// Frees the marks once the rule is chosen and its duplicates found.
    mutating func forgetCandidates() {
        candidates = [:]
        naturalKeys = []
    }

    /// Names by position repeat when the type's rows come from several sources: `Type-1` of the
    /// second source is `Type-1` of the first.
    private func positionDuplicates() -> [(first: Int, second: Int)] {
        var pairs: [(first: Int, second: Int)] = []
        var starts: [Int] = []
        var start = 0
        for count in rowsPerSource {
            for ordinal in 0..<count {
                if let earlier = zip(starts, rowsPerSource).first(where: { ordinal < $0.1 }) {
                    pairs.append((earlier.0 + ordinal, start + ordinal))
                }
            }
            starts.append(start)
            start += count
        }
        return pairs
    }
}
