/// What `push` and `pull` note per remote database, in `cloudseed.journal`.
extension PostgresContainerStore {
    package func journalEntries(of target: String) throws -> [String: String] {
        guard try connection.value("SELECT to_regclass('cloudseed.journal')::text") != nil else { return [:] }
        var entries: [String: String] = [:]
        for row in try connection.rows("SELECT key, value FROM cloudseed.journal WHERE target = $1", [target]) {
            if let key = row[0], let value = row[1] { entries[key] = value }
        }
        return entries
    }

    package func saveJournalEntries(_ entries: [(key: String, value: String)], of target: String) throws {
        try write { _ in
            try connection.execute(PostgresLayout.journalTable)
            for entry in entries {
                try connection.rows(
                    "INSERT INTO cloudseed.journal (target, key, value) VALUES ($1, $2, $3) ON CONFLICT (target, key) DO UPDATE SET value = EXCLUDED.value",
                    [target, entry.key, entry.value])
            }
        }
    }
}
