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
            let insert = try database.statement(
                "INSERT OR REPLACE INTO _cloudseed_journal (target, key, value) VALUES (?, ?, ?)")
            try insert.bindText(target, at: 1)
            for entry in entries {
                insert.resetKeepingBindings()
                try insert.bindText(entry.key, at: 2)
                try insert.bindText(entry.value, at: 3)
                try insert.runBound()
            }
        }
    }
}
