import CloudSeedTestSupport
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// What `push` and `pull` note per remote database: kept per target, replaced by key, kept across
/// openings of the store.
@Suite struct JournalTests {
    @Test(arguments: BackendKind.testable) func entriesAreKeptPerTargetAndReplacedByKey(_ backend: BackendKind) throws {
        let test = try TestStore(backend)
        let push = "push http://127.0.0.1:8787/database/1/iCloud.com.example.Gallery/development/public"
        let store = try test.open()
        #expect(try store.journalEntries(of: push) == [:])
        try store.saveJournalEntries(
            [("_defaultZone\u{1F}__defaultOwner__\u{1F}Mei Chen", "1 1"), ("b", "2 2")], of: push)
        try store.saveJournalEntries([("b", "5 3")], of: "pull elsewhere")
        try store.saveJournalEntries([("b", "4 3")], of: push)
        // A key given twice in one call keeps its last value; keys hold any text.
        try store.saveJournalEntries([("c", "1 1"), ("d \"quoted\"\n\\", "2 2"), ("c", "3 3")], of: push)
        let reopened = try test.open()
        #expect(
            try reopened.journalEntries(of: push) == [
                "_defaultZone\u{1F}__defaultOwner__\u{1F}Mei Chen": "1 1", "b": "4 3", "c": "3 3",
                "d \"quoted\"\n\\": "2 2",
            ])
        #expect(try reopened.journalEntries(of: "pull elsewhere") == ["b": "5 3"])
    }

    /// A call's entries go in one row; rows an earlier version wrote, one entry each, are read too;
    /// rows most of whose entries later ones replaced are written again as one.
    @Test func aCallsEntriesAreOneRowAndReplacedRowsAreWrittenAgain() throws {
        let test = try TestStore(.sqlite)
        let store = try test.open()
        try store.saveJournalEntries([("zone", "token")], of: "pull")  // which makes the store
        let database = try #require(store as? SQLiteContainerStore).database
        func rows() throws -> Int {
            guard
                case .integer(let count)? = try database.rows(
                    "SELECT count(*) FROM _cloudseed_journal WHERE target = 'push'"
                ).first?.first
            else { return -1 }
            return Int(count)
        }
        try database.rows(
            "INSERT INTO _cloudseed_journal (target, key, value) VALUES ('push', 'old', '1 1'), ('push', 'a', '1 1')")
        try store.saveJournalEntries([("a", "2 2"), ("b \"quoted\"\n", "2 2"), ("a", "3 3")], of: "push")
        #expect(try rows() == 3)
        #expect(try store.journalEntries(of: "push") == ["old": "1 1", "a": "3 3", "b \"quoted\"\n": "2 2"])
        try store.saveJournalEntries([("a", "4 4"), ("b \"quoted\"\n", "4 4")], of: "push")
        try store.saveJournalEntries([("a", "5 5"), ("b \"quoted\"\n", "5 5")], of: "push")
        #expect(try rows() == 5)
        // 8 entries stored for 3 kept: read once, they are one row.
        let entries = ["old": "1 1", "a": "5 5", "b \"quoted\"\n": "5 5"]
        #expect(try store.journalEntries(of: "push") == entries)
        #expect(try rows() == 1)
        #expect(try test.open().journalEntries(of: "push") == entries)
    }
}
