import CloudSeedTestSupport
import Testing

@testable import CloudSeed

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
        let reopened = try test.open()
        #expect(
            try reopened.journalEntries(of: push) == [
                "_defaultZone\u{1F}__defaultOwner__\u{1F}Mei Chen": "1 1", "b": "4 3",
            ])
        #expect(try reopened.journalEntries(of: "pull elsewhere") == ["b": "5 3"])
    }
}
