import CloudSeedReaders

/// What `push` and `pull` note per remote database, in `_cloudseed_journal`.
///
/// The entries of one call go in one row, as a JSON object under a key of their own (`\u{1E}` and
/// a number): a push notes each batch of 200 confirmed records as one row, not 200, each of which
/// cost two B-tree inserts. Later rows win over earlier ones, and a row of one entry (as earlier
/// versions wrote them) is read as it is. Where a target's rows hold more than twice its entries
/// (later pushes replaced the others), reading them writes them again as one row.
extension SQLiteContainerStore {
    package func journalEntries(of target: String) throws -> [String: String] {
        let (entries, stored) = try journal(of: target)
        if stored > 2 * entries.count {
            try write { _ in
                try database.rows("DELETE FROM _cloudseed_journal WHERE target = ?", [.text(target)])
                try insertJournalRow(entries.map { ($0.key, $0.value) }, of: target)
            }
        }
        return entries
    }

    package func saveJournalEntries(_ entries: [(key: String, value: String)], of target: String) throws {
        guard !entries.isEmpty else { return }
        try write { _ in try insertJournalRow(entries, of: target) }
    }

    /// A target's entries, and how many entries its rows hold, replaced ones included.
    private func journal(of target: String) throws -> (entries: [String: String], stored: Int) {
        var entries: [String: String] = [:]
        var stored = 0
        for row in try database.rows(
            "SELECT key, value FROM _cloudseed_journal WHERE target = ? ORDER BY rowid", [.text(target)])
        {
            guard case .text(let key) = row[0], case .text(let value) = row[1] else { continue }
            guard key.hasPrefix(Self.journalRowMark) else {
                entries[key] = value
                stored += 1
                continue
            }
            var parser = JSONParser(input: ChunkedInput(bytes: Array(value.utf8)), file: "_cloudseed_journal")
            guard case .dictionary(let members) = try parser.parsePlainDocument() else { continue }
            for member in members {
                guard case .string(let text) = member.value else { continue }
                entries[member.key] = text
                stored += 1
            }
        }
        return (entries, stored)
    }

    /// Writes `entries` as one row.
    private func insertJournalRow(_ entries: [(key: String, value: String)], of target: String) throws {
        guard
            case .integer(let number)? = try database.rows(
                "SELECT coalesce(max(rowid), 0) + 1 FROM _cloudseed_journal"
            ).first?.first
        else { throw database.storeError("the journal has no row number") }
        try database.rows(
            "INSERT OR REPLACE INTO _cloudseed_journal (target, key, value) VALUES (?, ?, ?)",
            [.text(target), .text("\(Self.journalRowMark)\(number)"), .text(JournalEntries.jsonObject(entries))])
    }

    /// What starts the key of a row of entries.
    private static let journalRowMark = "\u{1E}"
}
