package import CloudSeedCore

/// Records of the types a run creates, written straight from their values into `COPY` rows: no
/// ``CloudRecord`` and no dictionary of fields for each, no lookup of the type's layout and zone by
/// name, and the system columns the run's records share encoded once.
extension PostgresContainerStore {
    /// Where the records of one type and scope go, kept from one record to the next while they
    /// are the same; a class, so that each record takes it without copying what it holds.
    package final class InsertTarget {
        package let recordType: String
        package let scope: StoreScope
        package let layout: TypeLayout
        package let zone: Int64
        /// The field names the values come in.
        package var fieldNames: FieldNameList
        /// For each field column in the layout's order, where its value is among the record's values.
        package let valueOffsets: [Int?]
        /// Whether the table's keys wait for its rows (``deferNameIndex(ofType:in:)``): its rows then
        /// leave the columns they share to the table's defaults.
        package let keysDeferred: Bool
        /// The system fields of the last record, and its columns that the run's records share,
        /// encoded: when and by whom it was created and modified.
        package var system: SystemFields?
        package var sharedSystemColumns: [UInt8] = []
        /// The columns the rows leave to the table's defaults, where ``keysDeferred``.
        package var shared: PostgresPendingRows.SharedColumns?

        package init(
            recordType: String, scope: StoreScope, layout: TypeLayout, zone: Int64, fieldNames: [String],
            keysDeferred: Bool
        ) {
            self.keysDeferred = keysDeferred
            self.recordType = recordType
            self.scope = scope
            self.layout = layout
            self.zone = zone
            self.fieldNames = FieldNameList(fieldNames)
            valueOffsets = Self.valueOffsets(of: fieldNames, in: layout)
        }

        /// For each field column of `layout`, in its order, where its value is among values that
        /// come in the order of `fieldNames`.
        package static func valueOffsets(of fieldNames: [String], in layout: TypeLayout) -> [Int?] {
            let offsets = Dictionary(fieldNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            return layout.sortedFieldNames.map { offsets[$0] }
        }

        package func holds(_ recordType: String, _ scope: StoreScope, _ fieldNames: [String]) -> Bool {
            recordType == self.recordType && scope == self.scope && self.fieldNames.matches(fieldNames)
        }
    }

    /// Saves a record of a type the run created: its `COPY` row made from its values, buffered
    /// without the record's name indexed (``PostgresPendingRows/Batch``). Into a table that held
    /// no rows, the row leaves its zone and shared system fields to the table's defaults
    /// (``PostgresPendingRows/SharedColumns``).
    package func insertNew(_ record: TypedRecord, fieldNames: [String], system: SystemFields, in scope: StoreScope)
        throws
    {
        let target = try insertTarget(record.recordType, fieldNames: fieldNames, in: scope)
        if target.system.map({ Self.shareColumns($0, system) }) != true {
            var shared = PostgresBinaryRow()
            try shared.appendSystemColumns(system)
            target.sharedSystemColumns = shared.bytes
            target.system = system
            target.shared =
                target.keysDeferred ? PostgresPendingRows.SharedColumns(zone: target.zone, system: system) : nil
            insertedRowsMatchTheirBatch = false
        }
        let table = target.layout.qualifiedTable
        let whole = !target.keysDeferred  // shared is set where keys are deferred
        if !insertedRowsMatchTheirBatch {
            if pendingRows.mustSend(table, before: target.shared) { try flushPendingRows() }
            insertedRowsMatchTheirBatch = true
        }
        let full = try pendingRows.append(
            recordName: record.recordName, zone: target.zone, table: table, layout: target.layout,
            shared: target.shared,
            batchSize: whole ? PostgresPendingRows.batchSize : PostgresPendingRows.streamedBatchSize,
            fieldCount: (whole ? RecordColumns.system.count : 2) + target.valueOffsets.count
        ) { row in
            if whole { row.appendInt64(target.zone) }
            try row.appendText(record.recordName)
            if whole { row.appendEncoded(target.sharedSystemColumns) }
            try row.appendText(system.changeTag)
            if let encoded = record.encodedValues { return row.appendEncoded(encoded) }
            // Each value is handed over as it lies among the values, not wrapped in an optional of its own.
            try record.values.withUnsafeBufferPointer { values in
                for offset in target.valueOffsets {
                    if let offset { try row.appendValue(values[offset]) } else { row.appendNull() }
                }
            }
        }
        if full { try flushPendingRows() }
    }

    /// Encodes the values of the records of `recordType` where they are typed, as ``insertNew(_:fieldNames:system:in:)``
    /// would: the field columns of its `COPY` row.
    package func valueEncoder(for recordType: String, fieldNames: [String], in scope: StoreScope) throws
        -> StoredValueEncoder?
    {
        guard let layout = try typeLayouts(scope.schemaScope)[recordType] else { return nil }
        let valueOffsets = InsertTarget.valueOffsets(of: fieldNames, in: layout)
        return StoredValueEncoder { values, texts in
            try PostgresEncodedFields.encoded(values, texts: texts, at: valueOffsets)
        }
    }

    /// Whether two records' system fields share the columns but the change tag.
    private static func shareColumns(_ a: SystemFields, _ b: SystemFields) -> Bool {
        a.createdTimestamp == b.createdTimestamp && a.modifiedTimestamp == b.modifiedTimestamp
            && a.createdUserRecordName == b.createdUserRecordName
            && a.modifiedUserRecordName == b.modifiedUserRecordName
    }

    private func insertTarget(_ recordType: String, fieldNames: [String], in scope: StoreScope) throws -> InsertTarget {
        if let target = lastInsertTarget, target.holds(recordType, scope, fieldNames) { return target }
        guard let layout = try typeLayouts(scope.schemaScope)[recordType], let zone = try zoneKey(scope, create: true)
        else { throw CloudSeedError(.unknownRecordType, "record type \(recordType) is not in the schema") }
        let target = InsertTarget(
            recordType: recordType, scope: scope, layout: layout, zone: zone, fieldNames: fieldNames,
            keysDeferred: deferredKeys[layout.qualifiedTable] != nil)
        lastInsertTarget = target
        insertedRowsMatchTheirBatch = false
        return target
    }
}
