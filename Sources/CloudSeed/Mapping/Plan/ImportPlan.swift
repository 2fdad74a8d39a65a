/// What an import will write, decided by reading every source once: per record type its fields
/// with their types, how each choice was made, how its records are named and how many rows it has.
package struct ImportPlan: Sendable {
    package var recordTypes: [PlannedRecordType]
    /// How each type's rows are named, the same way in every pass (child records are named after their parent).
    var naming = RowNaming(rules: [:], randomSeed: 0)
    /// For each type that references point to, how its records are found by value.
    var indexes: [String: ReferenceIndex] = [:]
    /// With `--skip-bad-rows`: the errors found while naming, by type and row number (from 0).
    var rowErrors: [String: [Int: [CloudSeedError]]] = [:]

    /// The planned type named `name`.
    package func recordType(_ name: String) -> PlannedRecordType? {
        recordTypes.first { $0.name == name }
    }

    /// Whether `other` has every record written the same: the same types with the same fields
    /// (types, rules, reasons, first positions), the same naming and the same reference indexes,
    /// neither refusing a row nor naming records at random (each plan draws its own seed). Only the
    /// row counts may differ: a plan guessed from the first rows counted only those.
    func writesTheSame(as other: ImportPlan) -> Bool {
        guard rowErrors.isEmpty, other.rowErrors.isEmpty, naming.rules == other.naming.rules,
            naming.randomSeed == other.naming.randomSeed,
            recordTypes.count == other.recordTypes.count, indexes.count == other.indexes.count
        else { return false }
        for (type, otherType) in zip(recordTypes, other.recordTypes) {
            guard type.name == otherType.name, type.fields == otherType.fields, type.namingRule == otherType.namingRule,
                type.firstRowPosition == otherType.firstRowPosition, type.firstPositions == otherType.firstPositions,
                type.renamedKeys == otherType.renamedKeys
            else { return false }
        }
        return indexes.allSatisfy { name, index in other.indexes[name].map(index.findsTheSame(as:)) ?? false }
    }
}

/// A row left out of a run with `--skip-bad-rows`, and why.
package struct RejectedRow: Sendable {
    package var recordType: String
    package var position: SourcePosition
    package var errors: [CloudSeedError]

    /// One JSON object per error, for the rejects file: file, line, column, record type, reason
    /// (with the run options it names worded by `wording`).
    package func jsonLines(wordingOptions wording: (RunOption) -> String) -> [String] {
        errors.map { error in
            let position = error.position ?? self.position
            var members = [("file", JSONText.quoted(position.file))]
            if let line = position.line { members.append(("line", String(line))) }
            if let column = position.column { members.append(("column", String(column))) }
            if let keyPath = self.position.keyPath { members.append(("keyPath", JSONText.quoted(keyPath))) }
            let reason = error.message(wordingOptions: wording)
            members += [("recordType", JSONText.quoted(recordType)), ("reason", JSONText.quoted(reason))]
            return JSONText.object(members)
        }
    }
}

/// One record type of a plan.
package struct PlannedRecordType: Sendable {
    package var name: String
    package var fields: [String: PlannedField]
    package var namingRule: NamingRule
    /// How many rows keep the name their source gives them (``PreparedRow/ownName``): where the
    /// rule is another, it names the rest.
    package var rowsWithOwnName: Int
    /// How many rows of the sources are of this type.
    package var rowCount: Int
    /// Where the first row of this type is, for schema errors.
    package var firstRowPosition: SourcePosition
    /// Where each field's first value is, for schema errors.
    package var firstPositions: [String: SourcePosition]
    /// Field names that differ from the source keys they were made from: field → key.
    package var renamedKeys: [String: String] = [:]
    /// The entities of an app's model whose objects the records are (`--model`), named by UUIDs
    /// made from the names ``namingRule`` gives.
    package var objectsOf: [String] = []

    /// Field names in byte order.
    package var sortedFieldNames: [String] { fields.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }

    /// How the records are named, as the plan prints it: where some rows keep the names their
    /// sources give and the rule names the others, both.
    package var namingDescription: OptionText {
        switch namingRule {
        case .fromSource, .column, .qualifiedColumn, .parent, .template, .linkedPair: return namingRule.text
        case .naturalKey, .position, .uuid:
            guard rowsWithOwnName > 0 else { return namingRule.text }
            let rows = rowsWithOwnName == 1 ? "1 row" : "\(rowsWithOwnName) rows"
            return "the names their sources give (\(rows)), the other rows by \(namingRule.text)"
        }
    }

    /// The `--name-template` that names the records as the plan does; `nil` where none can (some
    /// rows keep the names their sources give, which a template would replace).
    package var pinningTemplate: String? {
        switch namingRule {
        case .naturalKey, .position, .uuid: rowsWithOwnName > 0 ? nil : namingRule.pinningTemplate
        case .qualifiedColumn(let column): "\(objectsOf.first ?? name)-{\(column)}"
        default: namingRule.pinningTemplate
        }
    }
}

/// A field of a planned record type: its type and which rule chose it.
package struct PlannedField: Hashable, Sendable {
    package enum Rule: String, Sendable {
        /// The store's schema defines the field.
        case schema
        /// `--field NAME:TYPE`.
        case override
        /// The source declares it (CloudKit record dictionaries, a child's link to its parent).
        case declared
        /// CloudKit gives it the type of its values' shape, the source giving none.
        case cloudKitValue = "CloudKit value"
        /// Inferred over all values of the run.
        case inferred
        /// The app's model (`--model`) declares the attribute or relationship the key names.
        case model
    }

    package var type: FieldType
    package var rule: Rule
    /// For a REFERENCE (or list of them): the record type pointed to, when known.
    package var target: String?
    /// The action of references made from this field's values.
    package var action: ReferenceAction = .none
    /// Why the heuristics chose this type, for the plan (`every value resolves to an Artist`).
    package var reason: OptionText?
    /// How a TIMESTAMP field's texts are read, where not the default way: the order of day and
    /// month its values or `--date-format` decide, the zone of `--timezone`.
    var dateReading: DateReading?
    /// What the app's model (`--model`) makes of the field.
    var modelField: ModelField?

    package init(
        type: FieldType, rule: Rule, target: String? = nil, action: ReferenceAction = .none, reason: OptionText? = nil
    ) {
        self.type = type
        self.rule = rule
        self.target = target
        self.action = action
        self.reason = reason
    }
}

extension RecordValue {
    /// Calls `body` with this value's asset, or each asset of a list.
    func forEachAsset(_ body: (AssetReference) throws -> Void) rethrows {
        switch self {
        case .asset(let asset): try body(asset)
        case .list(_, let items):
            for item in items { try item.forEachAsset(body) }
        default: break
        }
    }
}
