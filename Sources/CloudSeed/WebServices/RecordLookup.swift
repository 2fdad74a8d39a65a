/// CloudKit Web Services' `records/lookup` over a store: records by name, of any type, in one
/// read-only transaction; in the public database only those the user may read.
package enum RecordLookup {
    /// The stored record of each name, `nil` where there is none (or the user may not read it).
    package static func records(named names: [String], in scope: StoreScope, user: String, store: ContainerStore)
        throws -> [CloudRecord?]
    {
        try store.exclusively {
            try store.backend.read {
                let types = try store.backend.schema(of: scope.schemaScope).sortedRecordTypes.map(\.name)
                let readable =
                    scope.database == .public ? try Permissions(store: store.backend, scope: scope, user: user) : nil
                return try names.map { name in
                    for type in types {
                        if let record = try store.backend.record(named: name, ofType: type, in: scope) {
                            return readable?.canRead(record) ?? true ? record : nil
                        }
                    }
                    return nil
                }
            }
        }
    }
}
