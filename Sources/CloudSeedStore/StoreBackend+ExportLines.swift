package import CloudKitWire
package import CloudSeedCore
import Foundation

/// Exports through records, for stores that do not write lines from their columns.
extension StoreBackend {
    @discardableResult
    package func forEachRecordJSONLine(in scope: StoreScope, recordType: String?, _ line: ([UInt8]) throws -> Void)
        throws -> Int
    {
        var count = 0
        try forEachRecord(in: scope, recordType: recordType) { record in
            count += 1
            try line(Array((CloudKitJSON.record(record) + "\n").utf8))
        }
        return count
    }

    package func forEachRecordFieldsJSON(
        in scope: StoreScope, recordType: String?, fields: (RecordFieldsJSON) throws -> Void,
        record: (CloudRecord) throws -> Void
    ) throws {
        try forEachRecord(in: scope, recordType: recordType, record)
    }

    @discardableResult
    package func forEachRecordCSVLine(
        in scope: StoreScope, recordType: String?, columns: (String) throws -> [String],
        line: (String, [UInt8]) throws -> Void, record: (CloudRecord) throws -> Void
    ) throws -> Int {
        var count = 0
        try forEachRecord(in: scope, recordType: recordType) { found in
            count += 1
            try record(found)
        }
        return count
    }
}
