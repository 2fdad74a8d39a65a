/// What an import did: per record type the records created, updated and unchanged, the schema it
/// created just in time, and how each field was typed and each type's records named.
public struct ImportSummary: Sendable {
    public struct TypeCounts: Hashable, Sendable {
        public var recordType: String
        public var created = 0
        public var updated = 0
        public var unchanged = 0
        /// Rows or records left out: bad rows with `--skip-bad-rows`, conflicts with `--partial`.
        public var refused = 0
        /// Records deleted: by `seed --reset` or `--prune`.
        public var deleted = 0
    }

    public var scope: StoreScope
    package var plan: ImportPlan
    package var changes: SchemaChanges
    public var counts: [TypeCounts]
    /// Whether the run was rolled back (`--dry-run`): the counts say what would have happened.
    public var isDryRun = false
    /// Whether the sources were read once: the plan guessed from their first rows was the one all
    /// their rows decide, so they were written as they were surveyed.
    package var readOnce = false
    /// How long the run took.
    public var seconds: Double = 0

    /// The summary for people: a table of counts, then the schema created and the choices made.
    public var text: String { wordedText { $0.libraryWording } }

    /// ``text`` with the options that pin each choice worded by `wording`.
    package func wordedText(_ wording: (RunOption) -> String) -> String {
        let target =
            "\(scope.container) \(scope.environment.rawValue) \(scope.database.rawValue) \(scope.zoneID.zoneName)"
        var lines = [
            isDryRun ? "Dry run, nothing written; importing into \(target) would give:" : "Imported into \(target):"
        ]
        let width = max(11, counts.map(\.recordType.count).max() ?? 0)
        func row(_ cells: [String]) -> String {
            cells[0].padding(toLength: width, withPad: " ", startingAt: 0)
                + cells.dropFirst().map { String(repeating: " ", count: max(0, 10 - $0.count)) + $0 }.joined()
        }
        let showDeleted = counts.contains { $0.deleted > 0 }
        lines.append(
            "  "
                + row(["record type", "created", "updated", "unchanged", "refused"] + (showDeleted ? ["deleted"] : [])))
        for count in counts {
            let cells = [
                count.recordType, String(count.created), String(count.updated), String(count.unchanged),
                String(count.refused),
            ]
            lines.append("  " + row(cells + (showDeleted ? [String(count.deleted)] : [])))
        }
        lines.append("  in \(String(format: "%.2f", seconds)) s")
        if !changes.newRecordTypes.isEmpty || !changes.newFields.isEmpty {
            lines.append("Schema created just in time:")
            for type in changes.newRecordTypes { lines.append("  new record type \(type)") }
            for (type, field, fieldType) in changes.newFields {
                lines.append("  new field \(type).\(field) \(fieldType.schemaName)")
            }
        }
        let header: OptionText = "Choices (pin them with the \(option: .settings) shown):"
        lines.append(header.worded(wording))
        for recordType in plan.recordTypes {
            let pin = recordType.pinningTemplate.map {
                "  " + wording(.nameTemplate("\(recordType.objectsOf.first ?? recordType.name)=\($0)"))
            }
            let naming = recordType.namingDescription.worded(wording)
            if recordType.objectsOf.isEmpty {
                lines.append("  \(recordType.name): named by \(naming)\(pin ?? "")")
            } else {
                let objects = recordType.objectsOf.joined(separator: ", ")
                lines.append(
                    "  \(recordType.name) (\(objects) objects): named by UUIDs made from \(naming)\(pin ?? "")")
            }
            for name in recordType.sortedFieldNames {
                lines.append("    " + Self.describe(name, recordType.fields[name]!, in: recordType).worded(wording))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One field's line: its type, the rule and reason, the source key it was renamed from, the pin.
    static func describe(_ name: String, _ field: PlannedField, in recordType: PlannedRecordType) -> OptionText {
        var line = OptionText("\(name) \(field.type.schemaName)")
        if let target = field.target { line += " → \(target)" }
        line += " (\(field.rule.rawValue)"
        if let reason = field.reason { line += ": \(reason)" }
        line += ")"
        if let key = recordType.renamedKeys[name] { line += " from key '\(key)'" }
        let qualified = "\(recordType.name).\(name)"
        switch (field.rule, field.type) {
        case (.model, _):
            if let property = field.modelField?.property, let key = recordType.renamedKeys[name],
                let entity = recordType.objectsOf.first
            {
                line += "  \(option: .attribute("\(entity).\(key)=\(property)"))"
            }
        case (.schema, _), (.declared, _), (.cloudKitValue, _): break
        case (_, .reference), (_, .list(.reference)):
            line += "  \(option: .reference(qualified + (field.target.map { ":\($0)" } ?? "")))"
        default: line += "  \(option: .fieldType("\(qualified):\(field.type.schemaName)"))"
        }
        if let pattern = field.dateReading?.pattern { line += " \(option: .dateFormat("\(qualified)=\(pattern)"))" }
        return line
    }

    /// The summary as one JSON object, for scripts.
    public var json: String { wordedJSON { $0.libraryWording } }

    /// ``json`` with the options the fields' reasons name worded by `wording`.
    package func wordedJSON(_ wording: (RunOption) -> String) -> String {
        JSONText.object([
            ("container", JSONText.quoted(scope.container)),
            ("environment", JSONText.quoted(scope.environment.rawValue)),
            ("database", JSONText.quoted(scope.database.rawValue)),
            ("zone", JSONText.quoted(scope.zoneID.zoneName)),
            ("dryRun", isDryRun ? "true" : "false"),
            ("seconds", String(format: "%.3f", seconds)),
            (
                "recordTypes",
                JSONText.array(
                    zip(plan.recordTypes, counts).map { recordType, count in
                        JSONText.object([
                            ("name", JSONText.quoted(recordType.name)),
                            ("created", String(count.created)), ("updated", String(count.updated)),
                            ("unchanged", String(count.unchanged)),
                            ("refused", String(count.refused)), ("deleted", String(count.deleted)),
                            ("naming", JSONText.quoted(recordType.namingRule.text.worded(wording))),
                            (
                                "fields",
                                JSONText.object(
                                    recordType.sortedFieldNames.map { name in
                                        let field = recordType.fields[name]!
                                        var members = [
                                            ("type", JSONText.quoted(field.type.schemaName)),
                                            ("rule", JSONText.quoted(field.rule.rawValue)),
                                        ]
                                        if let target = field.target {
                                            members.append(("target", JSONText.quoted(target)))
                                        }
                                        if let reason = field.reason {
                                            members.append(("reason", JSONText.quoted(reason.worded(wording))))
                                        }
                                        if let pattern = field.dateReading?.pattern {
                                            members.append(("dateFormat", JSONText.quoted(pattern)))
                                        }
                                        if let key = recordType.renamedKeys[name] {
                                            members.append(("sourceKey", JSONText.quoted(key)))
                                        }
                                        return (name, JSONText.object(members))
                                    })
                            ),
                        ])
                    })
            ),
            ("createdRecordTypes", JSONText.array(changes.newRecordTypes.map(JSONText.quoted))),
            (
                "createdFields",
                JSONText.array(
                    changes.newFields.map {
                        JSONText.object([
                            ("recordType", JSONText.quoted($0.recordType)), ("field", JSONText.quoted($0.field)),
                            ("type", JSONText.quoted($0.type.schemaName)),
                        ])
                    })
            ),
        ]) + "\n"
    }
}
