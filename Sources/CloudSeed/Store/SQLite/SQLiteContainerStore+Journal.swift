/// What `push` and `pull` note per remote database, in `_cloudseed_journal`.
extension SQLiteContainerStore {
    package func journalEntries(of target: String) throws -> [String: String] {
        var entries: [String: String] = [:]
        for row in try database.rows("SELECT key, value FROM _cloudseed_journal WHERE target = ?", [.text(target)]) {
            if case .text(let key) = row[0], case .text(let value) = row[1] { entries[key] = value }
        }
        return entries
    }

    package func saveJournalEntries(_ entries: [(key: String, value: String)], of target: String) throws {
        try write { _ in
            for entry in entries {
                try database.rows(
                    "INSERT OR REPLACE INTO _cloudseed_journal (target, key, value) VALUES (?, ?, ?)",
                    [.text(target), .text(entry.key), .text(entry.value)])
            }
        }
    }
}
