import CSQLite
package import CloudSeedCore
import Foundation

extension SQLiteContainerStore {
    /// Calls `line` with each record of the scope (or of one type) as a line of ``CSVExporter``:
    /// the record name, then a cell per field in the order `columns` gives for the type, CRLF-ended.
    ///
    /// `export --format csv` goes through here: cells are copied from the stored columns, which hold
    /// CSV's forms already (``SQLiteValueCodec/holdsExportForm(_:)``). Records of a type whose columns
    /// differ, or with a column in an unexpected form, are handed to `record` as ``CloudRecord``s
    /// instead. Returns how many went that way.
    @discardableResult
    package func forEachRecordCSVLine(
        in scope: StoreScope, recordType: String?, columns: (String) throws -> [String],
        line: (String, [UInt8]) throws -> Void, record: (CloudRecord) throws -> Void
    ) throws -> Int {
        try database.withMappedReads {
            guard let zone = try zoneKey(scope, create: false) else { return 0 }
            let types = try typeLayouts(scope.schemaScope)
            var longWay = 0
            var bytes: [UInt8] = []
            bytes.reserveCapacity(4096)
            for name in types.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            where recordType == nil || recordType == name {
                let layout = types[name]!
                let fieldTypes = layout.sortedFieldNames.map { layout.fields[$0]!.type }
                guard fieldTypes.allSatisfy(SQLiteValueCodec.holdsExportForm) else {
                    // Asset fields need the store for their sizes: record by record, on this thread.
                    try database.forEachStep(layout.selectAll, [.integer(zone)]) { row in
                        longWay += 1
                        try record(try self.record(from: row.row(), type: name, layout: layout, zoneID: scope.zoneID))
                    }
                    continue
                }
                var direct: Bool?  // asked at the type's first record, as a type without records has no columns
                // The other core reads the store meanwhile: nothing here may use the database.
                try forEachRowByName(layout.selectNamesAndFields, of: layout, zone: zone) { row in
                    if direct == nil { direct = try columns(name) == layout.sortedFieldNames }
                    bytes.removeAll(keepingCapacity: true)
                    if direct!, Self.appendCSVLine(row, fieldTypes: fieldTypes, to: &bytes) {
                        return try line(name, bytes)
                    }
                    longWay += 1
                    // CSV writes no system fields, and none were read: the record is its name and fields.
                    var values = row.values()
                    values.insert(
                        contentsOf: repeatElement(SQLiteValue.null, count: RecordColumns.system.count - 2), at: 1)
                    try record(try self.record(from: values, type: name, layout: layout, zoneID: scope.zoneID))
                }
            }
            return longWay
        }
    }

    /// Writes one row of ``TypeLayout/selectNamesAndFields``; `false` if a column is not in the form expected.
    private static func appendCSVLine(_ row: some StoredColumns, fieldTypes: [FieldType], to bytes: inout [UInt8])
        -> Bool
    {
        guard row.columnType(0) == SQLITE_TEXT else { return false }
        CSVCell.append(row.textBytes(0), setButEmpty: false, to: &bytes)
        for (offset, type) in fieldTypes.enumerated() {
            bytes.append(UInt8(ascii: ","))
            let column = Int32(1 + offset)
            switch (type, row.columnType(column)) {
            case (_, SQLITE_NULL): continue
            case (.string, SQLITE_TEXT): CSVCell.append(row.textBytes(column), setButEmpty: true, to: &bytes)
            case (.int64, SQLITE_INTEGER): bytes += String(row.int64(column)).utf8
            case (.double, SQLITE_FLOAT): JSONText.appendNumber(row.double(column), to: &bytes)
            case (.double, SQLITE_INTEGER): JSONText.appendNumber(Double(row.int64(column)), to: &bytes)
            case (.bytes, SQLITE_BLOB): bytes += Data(buffer: row.textBytes(column)).base64EncodedString().utf8
            case (.timestamp, SQLITE_TEXT):
                guard SQLiteValueCodec.isFormattedTimestamp(row.textBytes(column)) else { return false }
                bytes += row.textBytes(column)
            case (.reference, SQLITE_TEXT):
                CSVCell.append(row.textBytes(column), setButEmpty: false, to: &bytes)
            case (.location, SQLITE_TEXT), (.list, SQLITE_TEXT):
                let text = row.textBytes(column)
                guard let first = text.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
                    return false
                }
                CSVCell.append(text, setButEmpty: false, to: &bytes)
            default: return false
            }
        }
        bytes += "\r\n".utf8
        return true
    }
}
