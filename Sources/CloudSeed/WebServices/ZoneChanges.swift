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
    /// public database only the records `user` may read.
    package init(
        in scope: StoreScope, since syncToken: String?, limit: Int, user: String, store: ContainerStore
    ) throws {
        let since = try Self.counter(of: syncToken)
        var all: [(counter: Int64, change: Change)] = try store.exclusively {
            try store.backend.read { try Self.changes(in: scope, since: since, user: user, store: store) }
        }
        all.sort { $0.counter < $1.counter }
        let page = all.prefix(limit)
        changes = page.map(\.change)
        moreComing = all.count > page.count
        self.syncToken = page.last.map { ChangeTag.text(of: $0.counter) } ?? syncToken ?? "0"
    }

    /// Every change in `scope` after the change tag counter `since`, unordered.
    private static func changes(in scope: StoreScope, since: Int64, user: String, store: ContainerStore) throws
        -> [(counter: Int64, change: Change)]
    {
        let readable =
            scope.database == .public ? try Permissions(store: store.backend, scope: scope, user: user) : nil
        var changes: [(Int64, Change)] = []
        var live = Set<String>()
        try store.backend.forEachRecord(in: scope, recordType: nil) { record in
            live.insert(record.recordID.recordName)
            guard let counter = Int64(record.system.changeTag, radix: 36), counter > since,
                readable?.canRead(record) ?? true
            else { return }
            changes.append((counter, .saved(record)))
        }
        for deleted in try store.backend.deletedRecords(in: scope)
        where deleted.changeTag > since && !live.contains(deleted.recordName) {
            changes.append((deleted.changeTag, .deleted(deleted)))
        }
        return changes
    }

    /// The change tag of the latest change in `scope`, as a sync token; `nil` for a zone with none.
    package static func latestToken(in scope: StoreScope, store: ContainerStore) throws -> String? {
        try store.exclusively {
            try store.backend.read {
                var latest: Int64 = 0
                try store.backend.forEachRecord(in: scope, recordType: nil) { record in
                    latest = max(latest, Int64(record.system.changeTag, radix: 36) ?? 0)
                }
                latest = try store.backend.deletedRecords(in: scope).map(\.changeTag).reduce(latest, max)
                return latest > 0 ? ChangeTag.text(of: latest) : nil
            }
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
