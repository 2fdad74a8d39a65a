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

    /// Writes `entries` in one statement, from a JSON object of them: a push notes 200 confirmed
    /// records at a time, which one statement each made as many round trips to the server.
    package func saveJournalEntries(_ entries: [(key: String, value: String)], of target: String) throws {
        guard !entries.isEmpty else { return }
        try write { _ in
            try connection.execute(PostgresLayout.journalTable)
            try connection.rows(
                "INSERT INTO cloudseed.journal (target, key, value) SELECT $1, key, value FROM json_each_text($2::json) ON CONFLICT (target, key) DO UPDATE SET value = EXCLUDED.value",
                [target, JournalEntries.jsonObject(entries)])
        }
    }
}
