/// Deletes records the CloudKit way: a record whose REFERENCE to a deleted record has the action
/// DELETE_SELF is deleted with it, and so on down; NONE references are left pointing at nothing.
package struct RecordDeleter {
    package var store: any StoreBackend
    package var scope: StoreScope

    package init(store: any StoreBackend, scope: StoreScope) {
        self.store = store
        self.scope = scope
    }

    /// Deletes the named records of `recordType` and their DELETE_SELF children in one transaction;
    /// returns every record deleted as `Type/name`. A name with no record is an error, and then
    /// nothing is deleted.
    package func delete(_ names: [String], ofType recordType: String) throws -> [String] {
        try store.write { try delete(names, ofType: recordType, in: $0) }
    }

    /// ``delete(_:ofType:)`` inside a transaction already open, as a server request's.
    package func delete(_ names: [String], ofType recordType: String, in transaction: any StoreTransaction) throws
        -> [String]
    {
        let children = try deleteSelfChildren()
        var deleted: [String] = []
        var queue = names.map { (recordType, $0) }
        var done = Set<String>()
        var errors = ErrorCollector()
        while !queue.isEmpty {
            let (type, name) = queue.removeFirst()
            guard done.insert("\(type)/\(name)").inserted else { continue }
            if try transaction.delete(name, ofType: type, in: scope) {
                deleted.append("\(type)/\(name)")
                queue += children[name] ?? []
            } else if type == recordType && names.contains(name) {
                try errors.record(
                    CloudSeedError(
                        .unresolvedReference,
                        "no \(type) record named '\(name)' in \(scope.zoneID.zoneName); check the name with \(option: .export(recordType: type))"
                    ))
            }
        }
        try errors.throwIfAny()
        return deleted
    }

    /// For each record name, the records that point to it with DELETE_SELF.
    private func deleteSelfChildren() throws -> [String: [(String, String)]] {
        var children: [String: [(String, String)]] = [:]
        try store.forEachRecord(in: scope, recordType: nil) { record in
            for value in record.fields.values {
                for reference in value.references where reference.action == .deleteSelf {
                    children[reference.recordName, default: []].append((record.recordType, record.recordID.recordName))
                }
            }
        }
        return children
    }
}

extension RecordValue {
    /// The references this value holds: itself, or a list's.
    package var references: [Reference] {
        switch self {
        case .reference(let reference): [reference]
        case .list(_, let items): items.flatMap(\.references)
        default: []
        }
    }
}

extension ContainerStore {
    /// Deletes the named records of `recordType` in `scope` as ``RecordDeleter`` does; returns every
    /// record deleted as `Type/name`.
    package func deleteRecords(_ names: [String], ofType recordType: String, in scope: StoreScope) throws -> [String] {
        try exclusively { try RecordDeleter(store: backend, scope: scope).delete(names, ofType: recordType) }
    }
}
