import CSQLite
package import CloudKitWire
package import CloudSeedCore
import Foundation

extension SQLiteContainerStore {
    /// Calls `line` with each record of the scope (or of one type) as one line of CloudKit JSON,
    /// byte for byte what ``CloudKitJSON/record(_:)`` writes, followed by a newline.
    ///
    /// `export --format jsonl` goes through here: the line is written straight from the stored
    /// columns, which are already in CloudKit JSON's forms (``SQLiteValueCodec``), without making a
    /// ``CloudRecord`` of each row. A type with ASSET fields or lists of TIMESTAMP, REFERENCE or
    /// ASSET, and any row holding a column in an unexpected form, goes the long way, through
    /// ``CloudKitJSON``. Returns how many rows went that way.
    @discardableResult
    package func forEachRecordJSONLine(in scope: StoreScope, recordType: String?, _ line: ([UInt8]) throws -> Void)
        throws -> Int
    {
        let zoneTail = CloudKitJSON.zoneKeyAndEnd(scope.zoneID) + [UInt8(ascii: "\n")]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4096)
        return try forEachStoredRow(in: scope, recordType: recordType, referenceObjects: true) { row, type in
            bytes.removeAll(keepingCapacity: true)
            guard Self.appendJSONLine(row, type: type, zoneTail: zoneTail, to: &bytes) else { return false }
            try line(bytes)
            return true
        } record: { record in
            try line(Array((CloudKitJSON.record(record) + "\n").utf8))
        }
    }

    /// Calls `fields` with each record of the scope (or of one type) whose `fields` object is
    /// written straight from its columns, byte for byte what ``CloudKitJSON`` writes; `record` with
    /// each other record (asset fields, references with an action or a zone of their own, columns
    /// in an unexpected form), in ``forEachRecord(in:recordType:_:)``'s order.
    package func forEachRecordFieldsJSON(
        in scope: StoreScope, recordType: String?, fields: (RecordFieldsJSON) throws -> Void,
        record: (CloudRecord) throws -> Void
    ) throws {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4096)
        let write: (CopiedRow, JSONRecordType) throws -> Bool = { row, type in
            bytes.removeAll(keepingCapacity: true)
            guard row.columnType(0) == SQLITE_TEXT, row.columnType(5) == SQLITE_TEXT,
                Self.appendFields(row, type.fields, referenceObjects: false, to: &bytes)
            else { return false }
            try fields(
                RecordFieldsJSON(
                    recordName: String(decoding: row.textBytes(0), as: UTF8.self), recordType: type.name,
                    changeTag: String(decoding: row.textBytes(5), as: UTF8.self), fields: bytes))
            return true
        }
        _ = try forEachStoredRow(
            in: scope, recordType: recordType, referenceObjects: false, direct: write, record: record)
    }

    /// Calls `direct` with each row of ``TypeLayout/selectAll`` of the scope's types (or of one)
    /// whose fields are all kept in CloudKit JSON's forms, and `record` with the record of every
    /// other row and of each row `direct` cannot write (it returns `false`). With
    /// `referenceObjects`, the JSON object a reference with an action or zone is kept as is written
    /// as it is; without, its row is a record. Returns how many rows went to `record`.
    private func forEachStoredRow(
        in scope: StoreScope, recordType: String?, referenceObjects: Bool,
        direct: (CopiedRow, JSONRecordType) throws -> Bool, record: (CloudRecord) throws -> Void
    ) throws -> Int {
        try database.withMappedReads {
            guard let zone = try zoneKey(scope, create: false) else { return 0 }
            var longWay = 0
            let types = try typeLayouts(scope.schemaScope)
            for name in types.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            where recordType == nil || recordType == name {
                let layout = types[name]!
                let type = JSONRecordType(name: name, layout: layout, referenceObjects: referenceObjects)
                guard type.fields.allSatisfy({ SQLiteValueCodec.holdsExportForm($0.type) }) else {
                    // Asset fields need the store for their sizes: record by record, on this thread.
                    try database.forEachStep(layout.selectAll, [.integer(zone)]) { row in
                        longWay += 1
                        try record(try self.record(from: row.row(), type: name, layout: layout, zoneID: scope.zoneID))
                    }
                    continue
                }
                // The other core reads the store meanwhile: nothing here may use the database. One
                // reader, not the two CSV has (``forEachRowByName``): writing JSON is the bigger half of
                // this export, and a third busy thread on two cores made it slower.
                try database.forEachCopiedRow(layout.selectAll, [.integer(zone)]) { row in
                    if try direct(row, type) { return }
                    longWay += 1
                    try record(try self.record(from: row.values(), type: name, layout: layout, zoneID: scope.zoneID))
                }
            }
            return longWay
        }
    }

    /// Writes one row of ``TypeLayout/selectAll``; `false` if a column is not in the form expected.
    private static func appendJSONLine(
        _ row: some StoredColumns, type: JSONRecordType, zoneTail: [UInt8], to bytes: inout [UInt8]
    ) -> Bool {
        for column in Int32(0)...5 where row.columnType(column) != SQLITE_TEXT { return false }
        guard let created = Timestamp.parse(utf8: row.textBytes(1)),
            let modified = Timestamp.parse(utf8: row.textBytes(3))
        else { return false }
        CloudKitJSON.appendRecordName(row.textBytes(0), to: &bytes)
        bytes += type.head
        JSONText.appendQuoted(row.textBytes(5), to: &bytes)
        bytes += CloudKitJSON.fieldsKey
        guard appendFields(row, type.fields, referenceObjects: type.referenceObjects, to: &bytes) else { return false }
        CloudKitJSON.appendStamps(
            created: created, by: row.textBytes(2), modified: modified, by: row.textBytes(4), to: &bytes)
        bytes += zoneTail
        return true
    }

    /// Writes the `fields` object of one row of ``TypeLayout/selectAll``; `false` if a column is not
    /// in the form expected.
    private static func appendFields(
        _ row: some StoredColumns, _ fields: [JSONLineField], referenceObjects: Bool, to bytes: inout [UInt8]
    ) -> Bool {
        bytes.append(UInt8(ascii: "{"))
        var first = true
        for (offset, field) in fields.enumerated() {
            let column = Int32(6 + offset)
            if row.columnType(column) == SQLITE_NULL { continue }
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            bytes += field.prefix
            guard field.appendValue(row, column, referenceObjects: referenceObjects, to: &bytes) else { return false }
            bytes += field.suffix
        }
        bytes.append(UInt8(ascii: "}"))
        return true
    }
}

/// A record type as its rows are written in CloudKit JSON.
private struct JSONRecordType {
    let name: String
    let fields: [JSONLineField]
    /// What follows a line's record name: `,"recordType":"Artist","recordChangeTag":`.
    let head: [UInt8]
    let referenceObjects: Bool

    init(name: String, layout: SQLiteContainerStore.TypeLayout, referenceObjects: Bool) {
        self.name = name
        fields = layout.sortedFieldNames.map { JSONLineField(name: $0, type: layout.fields[$0]!.type) }
        head = CloudKitJSON.recordTypeKeys(name, changeTag: true)
        self.referenceObjects = referenceObjects
    }
}

/// One field of a record type as a CloudKit JSON line writes it: `"name":{"value":…,"type":"…"}`.
private struct JSONLineField {
    let type: FieldType
    let prefix: [UInt8]
    let suffix: [UInt8]

    init(name: String, type: FieldType) {
        self.type = type
        prefix = CloudKitJSON.fieldHead(name)
        suffix = CloudKitJSON.fieldTail(type)
    }

    /// Writes the column's value; `false` if it is not in the form ``SQLiteValueCodec`` writes, or
    /// is a reference kept as a JSON object and `referenceObjects` is `false`.
    func appendValue(_ row: some StoredColumns, _ column: Int32, referenceObjects: Bool, to bytes: inout [UInt8])
        -> Bool
    {
        let storage = row.columnType(column)
        switch (type, storage) {
        case (.string, SQLITE_TEXT): JSONText.appendQuoted(row.textBytes(column), to: &bytes)
        case (.int64, SQLITE_INTEGER): bytes += String(row.int64(column)).utf8
        case (.double, SQLITE_FLOAT): JSONText.appendNumber(row.double(column), to: &bytes)
        case (.double, SQLITE_INTEGER): JSONText.appendNumber(Double(row.int64(column)), to: &bytes)
        case (.bytes, SQLITE_BLOB):
            let blob = row.textBytes(column)
            JSONText.appendQuoted(Data(buffer: blob).base64EncodedString().utf8, to: &bytes)
        case (.timestamp, SQLITE_TEXT):
            guard let milliseconds = Timestamp.parse(utf8: row.textBytes(column)) else { return false }
            bytes += String(milliseconds).utf8
        case (.reference, SQLITE_TEXT):
            let text = row.textBytes(column)
            if text.first == UInt8(ascii: "{") {
                guard referenceObjects else { return false }
                bytes += text
            } else {
                Reference.appendCloudKitJSON(recordName: text, to: &bytes)
            }
        case (.location, SQLITE_TEXT), (.list, SQLITE_TEXT):
            // Stored as the CloudKit JSON of the value (a location, a list of plain values).
            let text = row.textBytes(column)
            guard let first = text.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return false }
            bytes += text
        default: return false
        }
        return true
    }
}
