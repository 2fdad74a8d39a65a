import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// The request examples of Apple's CloudKit Web Services Reference (records/modify), written out
/// as the reference gives them, without field types: each imports to the record the reference says
/// the server stores.
@Suite struct WebServicesExamplesTests {
    let folder: TemporaryFolder
    let store: SQLiteContainerStore
    let scope = StoreScope(container: "iCloud.com.example.CloudKitCatalog")

    init() throws {
        folder = try TemporaryFolder()
        store = try SQLiteContainerStore(path: folder.path("store.sqlite"))
        _ = try send(
            "create.json",
            #"""
            {"operations": [{"operationType": "create",
              "record": {"recordType": "Artist", "recordName": "Mei Chen",
                "fields": {"firstName": {"value": "Mei"}, "lastName": {"value": "Chen"}}}}]}
            """#)
    }

    @discardableResult
    func send(_ name: String, _ request: String, mode: SaveMode = .changedKeys) throws -> ImportSummary {
        var importer = Importer(store: ContainerStore(backend: store), scope: scope, now: 1_700_000_000_000)
        importer.mode = mode
        return try importer.run([SourceFile(path: folder.write(name, request))])
    }

    func record(_ type: String, _ name: String) throws -> CloudRecord? {
        var found: CloudRecord?
        try store.forEachRecord(in: scope, recordType: type) { if $0.recordID.recordName == name { found = $0 } }
        return found
    }

    var types: [String: [String: FieldType]] {
        get throws { try store.schema(of: scope.schemaScope).recordTypes.mapValues(\.fields) }
    }

    @Test func creatingARecord() throws {
        #expect(try types["Artist"] == ["firstName": .string, "lastName": .string])
        #expect(try record("Artist", "Mei Chen")?.fields == ["firstName": .string("Mei"), "lastName": .string("Chen")])
    }

    @Test func aReferenceWithDeleteSelfALocationAndAList() throws {
        try send(
            "artwork.json",
            #"""
            {"operations": [{"operationType": "create",
              "record": {"recordType": "Artwork", "recordName": "Harbor at Dusk",
                "fields": {
                  "title": {"value": "Harbor at Dusk"},
                  "artist": {"value": {"recordName": "Mei Chen", "action": "DELETE_SELF"}},
                  "location": {"value": {"latitude": 37.7749, "longitude": -122.4194}},
                  "width": {"value": 18},
                  "price": {"value": 1250.5},
                  "tags": {"value": ["oil", "harbor"]},
                  "dimensions": {"value": [18, 24]}}}}]}
            """#)
        #expect(
            try types["Artwork"] == [
                "title": .string, "artist": .reference, "location": .location, "width": .int64, "price": .double,
                "tags": .list(.string), "dimensions": .list(.int64),
            ])
        #expect(
            try record("Artwork", "Harbor at Dusk")?.fields == [
                "title": .string("Harbor at Dusk"),
                "artist": .reference(Reference(recordName: "Mei Chen", action: .deleteSelf)),
                "location": .location(Location(latitude: 37.7749, longitude: -122.4194)),
                "width": .int64(18), "price": .double(1250.5),
                "tags": .list(.string, [.string("oil"), .string("harbor")]),
                "dimensions": .list(.int64, [.int64(18), .int64(24)]),
            ])
    }

    @Test func updatingARecordWithItsChangeTag() throws {
        let tag = try #require(try record("Artist", "Mei Chen")).system.changeTag
        let update = #"""
            {"operations": [{"operationType": "update",
              "record": {"recordType": "Artist", "recordName": "Mei Chen", "recordChangeTag": "TAG",
                "fields": {"lastName": {"value": "Chen-Li"}}}}]}
            """#
        let summary = try send(
            "update.json", update.replacingOccurrences(of: "TAG", with: tag), mode: .updateIfUnchanged)
        #expect(summary.counts == [ImportSummary.TypeCounts(recordType: "Artist", updated: 1)])
        let updated = try #require(try record("Artist", "Mei Chen"))
        #expect(updated.fields == ["firstName": .string("Mei"), "lastName": .string("Chen-Li")])
        #expect(updated.system.changeTag != tag)

        let stale = #expect(throws: CloudSeedError.self) {
            try send("stale.json", update.replacingOccurrences(of: "TAG", with: tag), mode: .updateIfUnchanged)
        }
        #expect(stale?.code == .recordConflict)
    }
}
