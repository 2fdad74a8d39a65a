extension CoreDataShape {
    /// Sets the other end of each one-to-one link the run wrote (``inverseLinks``), where the
    /// record linked to does not hold it yet, as `user` at `now`.
    func writeInverseLinks(in transaction: any StoreTransaction, scope: StoreScope, now: Int64, user: String) throws {
        for link in inverseLinks {
            guard var record = try transaction.record(link.recordName, ofType: link.recordType, in: scope),
                record.fields[link.field] != .string(link.value)
            else { continue }
            record.fields[link.field] = .string(link.value)
            record.system.modifiedTimestamp = now
            record.system.modifiedUserRecordName = user
            record.system.changeTag = try transaction.nextChangeTag()
            try transaction.save(record, in: scope)
        }
    }
}
