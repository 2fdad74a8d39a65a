package import CloudSeedCore

/// The records a store holds, as a run's plan reads them: the targets of its references, besides
/// the records of the run.
package protocol StoredRecords: AnyObject {
    /// Calls `body` with each record of a zone, by record type then record name in byte order.
    func forEachRecord(in scope: StoreScope, recordType: String?, _ body: (CloudRecord) throws -> Void) throws
}
