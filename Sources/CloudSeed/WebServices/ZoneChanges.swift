/// What changed in a zone since a sync token, for `records/changes` and `changes/zone`: records
/// saved and records deleted, in the order of their change tags. A sync token is the change tag
/// of the last change a client has seen, in base 36 as change tags are written.
package struct ZoneChanges {
    /// A saved record or a deleted one.
    package enum Change {
        case saved(CloudRecord)
        case deleted(DeletedRecord)
    }

    package var changes: [Change]
    /// The token to ask with next time: the last change given, or the token asked with.
    package var syncToken: String
    /// Whether changes after these are left for the next request.
    package var moreComing: Bool

    /// The changes in `scope` after `syncToken` (all of them without one), at most `limit`; in the
    /// public database only the records `user` may read. Only the page is read from the store,
    /// so that a client paging through a large zone reads each record once.
    package init(
        in scope: StoreScope, since syncToken: String?, limit: Int, user: String, store: ContainerStore
    ) throws {
        let since = try Self.counter(of: syncToken)
        let (page, more) = try store.exclusively {
            // Where the index cannot be made (a store file that is read-only, or a writer that
            // holds it too long), the page is read without it, only more slowly.
            try? store.backend.indexChanges(in: scope.schemaScope)
            return try store.backend.read {
                try Self.page(in: scope, since: since, limit: limit, user: user, store: store.backend)
            }
        }
        changes = page.map(\.change)
        moreComing = more
        self.syncToken = page.last.map { ChangeTag.text(of: $0.counter) } ?? syncToken ?? "0"
    }

    /// The first `limit` changes in `scope` after the change tag counter `since`, in change tag
    /// order, and whether more follow.
    private static func page(in scope: StoreScope, since: Int64, limit: Int, user: String, store: any StoreBackend)
        throws -> (changes: [(counter: Int64, change: Change)], more: Bool)
    {
        let types = try store.schema(of: scope.schemaScope).sortedRecordTypes.map(\.name)
        let readable = scope.database == .public ? try Permissions(store: store, scope: scope, user: user) : nil
        // The saves, `limit` and one more, read on past those the user may not read.
        var saved: [(counter: Int64, change: Change)] = []
        var after = since
        var savesLeft = true
        while savesLeft && saved.count <= limit {
            let next = try savedRecords(in: scope, ofTypes: types, after: after, limit: limit + 1, store: store)
            savesLeft = next.count > limit
            guard let last = next.last?.counter else { break }
            after = last
            saved += next.filter { readable?.canRead($0.record) ?? true }.map { ($0.counter, .saved($0.record)) }
        }
        // The deletions, but of records saved again since: those are their saves.
        var deleted: [(counter: Int64, change: Change)] = []
        for deletion in try store.deletedRecords(in: scope) where deletion.changeTag > since {
            // Past `limit` and one more changes, a later deletion is in no page of this one.
            if deleted.count > limit || (saved.count > limit && deletion.changeTag > saved[limit].counter) { break }
            guard
                try !types.contains(where: {
                    try store.record(named: deletion.recordName, ofType: $0, in: scope) != nil
                })
            else { continue }
            deleted.append((deletion.changeTag, .deleted(deletion)))
        }
        let all = (saved + deleted).sorted { $0.counter < $1.counter }
        return (Array(all.prefix(limit)), all.count > limit || savesLeft)
    }

    /// The records of `types` in `scope` saved after the change tag counter `after`, in change
    /// tag order, at most `limit`.
    private static func savedRecords(
        in scope: StoreScope, ofTypes types: [String], after: Int64, limit: Int, store: any StoreBackend
    ) throws -> [(counter: Int64, record: CloudRecord)] {
        var found: [(counter: Int64, record: CloudRecord)] = []
        for type in types {
            for record in try store.records(ofType: type, in: scope, changedAfter: after, limit: limit) {
                found.append((Int64(record.system.changeTag, radix: 36) ?? .max, record))
            }
        }
        return Array(found.sorted { $0.counter < $1.counter }.prefix(limit))
    }

    /// The change tag of the latest change in `scope`, as a sync token; `nil` for a zone with none.
    package static func latestToken(in scope: StoreScope, store: ContainerStore) throws -> String? {
        try store.exclusively {
            try? store.backend.indexChanges(in: scope.schemaScope)
            return try store.backend.read {
                let saved = try store.backend.latestChangeTag(in: scope) ?? 0
                let latest = try store.backend.deletedRecords(in: scope).map(\.changeTag).reduce(saved, max)
                return latest > 0 ? ChangeTag.text(of: latest) : nil
            }
        }
    }

    /// The zones deleted from the database `scope` is in (those of `user`, in a private or shared
    /// one), in the order of their deletions.
    package static func deletedZones(besides scope: StoreScope, user: String, store: ContainerStore) throws
        -> [DeletedZone]
    {
        try store.exclusively { try store.backend.read { try store.backend.deletedZones() } }.filter {
            $0.scope.container == scope.container && $0.scope.environment == scope.environment
                && $0.scope.database == scope.database
                && (scope.database == .public || $0.scope.zoneID.ownerName == user)
        }
    }

    /// The counter a sync token stands for; 0 for none.
    package static func counter(of syncToken: String?) throws -> Int64 {
        guard let syncToken else { return 0 }
        guard let counter = Int64(syncToken, radix: 36), counter >= 0 else {
            throw CloudSeedError(.invalidOption, "the syncToken '\(syncToken)' is not one this store gave")
        }
        return counter
    }
}
