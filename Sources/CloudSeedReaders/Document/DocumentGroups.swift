import CloudSeedCore

/// Records a document groups under keys that are data, not kinds of record: cards keyed by their
/// bank, cities keyed by their state. Such groups make records of the source's own type, each
/// keeping its group's key in the field ``groupField``, where a key per type would make a type per
/// bank or a field per city.
extension DocumentShape {
    /// The field a grouped record keeps its group's key in.
    package static let groupField = "group"

    /// The arrays of records of a top-level object, told apart: collections, each of the type its
    /// key names (json-server's `{"dishes": [...], "comments": [...]}`), or groups of one type keyed
    /// by what they share (`{"Citibank": [cards], "DBS": [cards]}`). Groups are records of one shape
    /// under keys not all plural; the first array's rows wait, up to ``waitingLimit``, for the second
    /// array's first row to tell.
    package struct ArrayGroups {
        /// How many rows of the first array wait for the second to tell what the arrays are.
        package static let waitingLimit = 10_000

        private enum Kind { case undecided, collections, groups }
        private var kind = Kind.undecided
        private var first: (key: String, rows: [SourceRow])?

        /// Takes in a record of the array under `key`, handing on what is decided.
        package mutating func add(_ row: SourceRow, key: String, _ body: (SourceRow) throws -> Void) throws {
            if kind == .undecided {
                guard let first, first.key != key else {
                    if first == nil { self.first = (key, []) }
                    self.first!.rows.append(row)
                    if self.first!.rows.count > Self.waitingLimit { try decide(.collections, body) }
                    return
                }
                let isGroup =
                    Self.keys(of: first.rows[0]) == Self.keys(of: row)
                    && !(Self.isPlural(first.key) && Self.isPlural(key))
                try decide(isGroup ? .groups : .collections, body)
            }
            try body(shaped(row, key: key))
        }

        /// Hands on the rows still waiting, as collections where nothing told otherwise.
        package mutating func finish(_ body: (SourceRow) throws -> Void) throws {
            if kind == .undecided, first != nil { try decide(.collections, body) }
        }

        private mutating func decide(_ kind: Kind, _ body: (SourceRow) throws -> Void) throws {
            self.kind = kind
            guard let (key, rows) = first.take() else { return }
            for row in rows { try body(shaped(row, key: key)) }
        }

        /// The row as what was decided makes it: of the type its key names, or of the source's
        /// type keeping its key.
        private func shaped(_ row: SourceRow, key: String) -> SourceRow {
            var row = row
            if kind == .groups {
                if !row.fields.contains(where: { $0.key == DocumentShape.groupField }) {
                    row.fields.insert(
                        SourceField(key: DocumentShape.groupField, value: .string(key), position: row.position), at: 0)
                }
            } else if row.recordType == nil {
                row.recordType = IdentifierMapping.recordType(forFileStem: key)
            }
            return row
        }

        private static func keys(of row: SourceRow) -> Set<String> { Set(row.fields.map(\.key)) }

        package static func isPlural(_ key: String) -> Bool { IdentifierMapping.singular(key) != key }
    }

    /// An object of objects keyed by data (`{"Alabama": {"Birmingham": …}, "Alaska": {…}}`): two or
    /// more objects under keys not all plural, whose entries are of one shape (objects of the same
    /// keys, or plain values) and, where they are plain values, under keys too many to be fields. Each entry is a record (``groupedEntries(of:)``).
    package static func isKeyedByData(_ members: [(key: String, node: DocumentNode)]) -> Bool {
        guard members.count >= 2, !members.allSatisfy({ ArrayGroups.isPlural($0.key) }) else { return false }
        var shape: Set<String>?
        var entries = 0
        var entryKeys = Set<String>()
        for (_, node) in members {
            guard let inner = node.members, let first = inner.first else { return false }
            let firstShape = first.node.members.map { Set($0.map(\.key)) } ?? []
            if shape == nil { shape = firstShape } else if shape != firstShape { return false }
            entries += inner.count
            for (key, _) in inner { entryKeys.insert(key) }
        }
        // Entries that are objects are records; plain values are a map where their keys are more than
        // a record type's fields would be, or many and mostly differing from group to group.
        if shape?.isEmpty == false { return true }
        return entryKeys.count > 200 || (entryKeys.count > 50 && entryKeys.count * 3 > entries * 2)
    }

    /// The records of an object keyed by data: one per entry of each group, of the source's type,
    /// keeping the group's key and its own (`key`), with the entry's fields or its `value`.
    package static func groupedEntries(of members: [(key: String, node: DocumentNode)]) -> [SourceRow] {
        var rows: [SourceRow] = []
        for (group, node) in members {
            for (key, entry) in node.members ?? [] {
                var position = entry.position
                position.keyPath = "\(group).\(key)"
                var fields = [
                    SourceField(key: groupField, value: .string(group), position: position),
                    SourceField(key: "key", value: .string(key), position: position),
                ]
                if let entryMembers = entry.members {
                    fields += entryMembers.filter { $0.key != groupField && $0.key != "key" }.map {
                        SourceField(key: $0.key, value: $0.node.plainValue, position: $0.node.position)
                    }
                } else {
                    fields.append(SourceField(key: "value", value: entry.plainValue, position: position))
                }
                rows.append(SourceRow(fields: fields, position: position))
            }
        }
        return rows
    }
}
