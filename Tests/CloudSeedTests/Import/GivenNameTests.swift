import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// A name a source gives a record (a CloudKit `recordName`, a name column) is kept, whatever rule
/// names the other rows of its type.
@Suite struct GivenNameTests {
    let folder: TemporaryFolder
    let store: SQLiteContainerStore
    let scope = StoreScope()

    init() throws {
        folder = try TemporaryFolder()
        store = try SQLiteContainerStore(path: folder.path("store.sqlite"))
    }

    static let namedSong =
        #"{"records": [{"recordType": "Song", "recordName": "s1", "fields": {"title": {"value": "a"}}}]}"#

    func importFiles(_ files: [(String, String)], options: MappingOptions = MappingOptions()) throws -> ImportSummary {
        try Importer(store: ContainerStore(backend: store), scope: scope, options: options, now: 1_700_000_000_000)
            .run(files.map { try SourceFile(path: folder.write($0.0, $0.1), recordType: "Song") })
    }

    func names() throws -> [String] {
        var names: [String] = []
        try store.forEachRecord(in: scope, recordType: nil) {
            names.append("\($0.recordType)/\($0.recordID.recordName)")
        }
        return names
    }

    @Test func aSourcesNamesAreKeptBesideRowsAnotherSourceLeavesUnnamed() throws {
        let summary = try importFiles([
            ("named.json", Self.namedSong), ("songs.json", #"[{"title": "x"}, {"title": "y"}]"#),
        ])
        #expect(try names() == ["Song/s1", "Song/x", "Song/y"])
        #expect(
            summary.text.contains(
                "  Song: named by the names their sources give (1 row), the other rows by the natural key {title}, unique in every row\n"
            ))
    }

    @Test func childRowsDoNotCostTheirTypesRecordsTheirNames() throws {
        _ = try Importer(store: ContainerStore(backend: store), scope: scope, now: 0).run([
            SourceFile(path: folder.write("named.json", Self.namedSong)),
            SourceFile(
                path: folder.write("playlists.json", #"{"Playlist": [{"name": "p", "songs": [{"title": "x"}]}]}"#)),
        ])
        #expect(try names() == ["Playlist/p", "Song/p-songs-1", "Song/s1"])
    }

    @Test func rowsWithANameColumnKeepItWhereOtherRowsHaveNone() throws {
        _ = try importFiles([("songs.csv", "id,title\n7,a\n,b\n")])
        #expect(try names() == ["Song/7", "Song/b"])
    }

    @Test func aTemplateThatWouldRenameAGivenNameFailsAtTheRecord() throws {
        var options = MappingOptions()
        options.nameTemplates = [NameTemplate(recordType: "Song", template: "{title}")]
        let path = folder.path("named.json")
        #expect(
            errorMessages { _ = try importFiles([("named.json", Self.namedSong)], options: options) } == [
                "\(path):1:14: the source names this record 's1', but the name template \"{title}\" names it 'a'; drop MappingOptions.nameTemplates for Song, or remove the source's recordName (at records[0])"
            ])
        #expect(try names().isEmpty)
    }
}
