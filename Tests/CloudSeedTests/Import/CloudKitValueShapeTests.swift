import CloudSeedTestSupport
import Crypto
import Foundation
import Testing

@testable import CloudKitWire
@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// CloudKit record JSON whose field values leave out `type`, as Apple's own examples do: typed as
/// CloudKit infers it from the value.
@Suite struct CloudKitValueShapeTests {
    let folder: TemporaryFolder
    let store: SQLiteContainerStore
    let scope = StoreScope()

    init() throws {
        folder = try TemporaryFolder()
        store = try SQLiteContainerStore(path: folder.path("store.sqlite"))
    }

    static let playlistRequest = #"""
        {"operations": [
         {"operationType": "create", "record": {"recordType": "Playlist", "recordName": "p1", "fields": {
           "songs": {"value": [{"recordName": "s1", "action": "NONE"}, {"recordName": "s2", "action": "NONE"}]},
           "cover": {"value": {"fileChecksum": "AbCd==", "size": 12, "receipt": "r1"}},
           "zoned": {"value": {"recordName": "s1", "zoneID": {"zoneName": "_defaultZone"}, "action": "NONE"}}}}},
         {"operationType": "create", "record": {"recordType": "Song", "recordName": "s1", "fields": {"t": {"value": "a"}}}},
         {"operationType": "create", "record": {"recordType": "Song", "recordName": "s2", "fields": {"t": {"value": "b"}}}}]}
        """#

    func importText(_ name: String, _ text: String, allowDangling: Bool = true) throws -> ImportSummary {
        var options = MappingOptions()
        options.allowDangling = allowDangling
        return try Importer(
            store: ContainerStore(backend: store), scope: scope, options: options, now: 1_700_000_000_000
        )
        .run([SourceFile(path: folder.write(name, text))])
    }

    func records() throws -> [String: CloudRecord] {
        var result: [String: CloudRecord] = [:]
        try store.forEachRecord(in: scope, recordType: nil) {
            result["\($0.recordType)/\($0.recordID.recordName)"] = $0
        }
        return result
    }

    @Test func anUntypedModifyRequestIsTypedAsCloudKitTypesIt() throws {
        let summary = try importText("modify.json", Self.playlistRequest)
        #expect(summary.text.contains("    cover ASSET (CloudKit value)\n    songs LIST<REFERENCE> (CloudKit value)\n"))
        let types = try store.schema(of: scope.schemaScope).recordTypes
        #expect(types["Playlist"]?.fields == ["songs": .list(.reference), "cover": .asset, "zoned": .reference])
        #expect(types["Song"]?.fields == ["t": .string])
        let records = try records()
        #expect(records.keys.sorted() == ["Playlist/p1", "Song/s1", "Song/s2"])
        #expect(
            records["Playlist/p1"]?.fields == [
                "songs": .list(
                    .reference, [.reference(Reference(recordName: "s1")), .reference(Reference(recordName: "s2"))]),
                "cover": .asset(AssetReference(fileChecksum: "AbCd==", size: 12)),
                "zoned": .reference(Reference(recordName: "s1")),
            ])
        #expect(records["Song/s1"]?.fields == ["t": .string("a")])
    }

    @Test func untypedLocationsStringsNumbersAndListsTakeCloudKitsTypes() throws {
        _ = try importText(
            "query.json",
            #"""
            {"records": [{"recordType": "Place", "recordName": "harbor", "fields": {
              "where": {"value": {"latitude": 37.33, "longitude": -122.03}},
              "stops": {"value": [{"latitude": 1, "longitude": 2}, {"latitude": -3, "longitude": 4.5}]},
              "opened": {"value": "2024-01-02T03:04:05Z"},
              "tags": {"value": ["a", "b"]},
              "visits": {"value": 3},
              "rating": {"value": 4.5},
              "pictures": {"value": [{"fileChecksum": "Zz==", "size": 1, "downloadURL": "https://example.com/x"}]}}}]}
            """#)
        #expect(
            try store.schema(of: scope.schemaScope).recordTypes["Place"]?.fields == [
                "where": .location, "stops": .list(.location), "opened": .string, "tags": .list(.string),
                "visits": .int64, "rating": .double, "pictures": .list(.asset),
            ])
        #expect(try records()["Place/harbor"]?.fields["opened"] == .string("2024-01-02T03:04:05Z"))
    }

    @Test func aDictionaryOfNoCloudKitShapeIsRefusedNamingTheField() throws {
        let messages = errorMessages {
            _ = try importText(
                "odd.json",
                #"{"records": [{"recordType": "Odd", "recordName": "o", "fields": {"color": {"value": {"red": 1}}}}]}"#)
        }
        #expect(
            messages == [
                "\(folder.path("odd.json")):1:85: field 'color' of a CloudKit record holds a dictionary that is none of CloudKit's values; write a REFERENCE {\"recordName\", \"action\"}, an ASSETID {\"fileChecksum\", \"size\", \"receipt\"} or a LOCATION {\"latitude\", \"longitude\"}, or give the field's \"type\""
            ])
        #expect(try records().isEmpty)
    }

    @Test func aListOfMixedShapesIsRefused() throws {
        let messages = errorMessages {
            _ = try importText(
                "mixed.json",
                #"{"records": [{"recordType": "M", "recordName": "m", "fields": {"l": {"value": ["a", {"recordName": "x"}]}}}]}"#
            )
        }
        #expect(
            messages == [
                "\(folder.path("mixed.json")):1:85: field 'l' of a CloudKit record holds a list whose items are not all of one type; give the field's \"type\" (such as STRING_LIST), or make the items alike"
            ])
    }
}

extension CloudKitValueShapeTests {
    @Test func anAssetWhoseBytesTheStoreLacksIsRefusedWithoutAllowDangling() throws {
        let path = folder.path("modify.json")
        #expect(
            errorMessages { _ = try importText("modify.json", Self.playlistRequest, allowDangling: false) } == [
                "\(path):2:40: field 'cover' names the asset AbCd==, whose bytes are not in the store; give the asset's file path instead, or pass MappingOptions.allowDangling to keep it as metadata only (at operations[0].record)"
            ])
        #expect(try records().isEmpty)
    }

    @Test func anAssetWhoseBytesTheStoreHoldsNeedsNothingMore() throws {
        let image = Data("a picture".utf8)
        try image.write(to: folder.url.appendingPathComponent("cover.png"))
        _ = try importText(
            "first.json",
            #"{"records": [{"recordType": "Cover", "recordName": "c", "fields": {"image": {"value": "cover.png", "type": "ASSETID"}}}]}"#,
            allowDangling: false)
        let checksum = SHA256.hexDigest(of: image)
        _ = try importText(
            "second.json",
            #"{"records": [{"recordType": "Cover", "recordName": "d", "fields": {"image": {"value": {"fileChecksum": "\#(checksum)", "size": 9}}}}]}"#,
            allowDangling: false)
        #expect(try records()["Cover/d"]?.fields["image"] == .asset(AssetReference(fileChecksum: checksum, size: 9)))
    }
}

extension CloudKitValueShapeTests {
    static let noteAboutWork =
        #"{"records": [{"recordType": "Note", "recordName": "n1", "fields": {"about": {"value": {"recordName": "x", "zoneID": {"zoneName": "Work"}, "action": "NONE"}}}}]}"#

    func importNote(allowDangling: Bool) throws {
        var options = MappingOptions()
        options.allowDangling = allowDangling
        _ = try Importer(
            store: ContainerStore(backend: store), scope: StoreScope(database: .private), options: options, now: 0
        )
        .run([SourceFile(path: folder.write("note.json", Self.noteAboutWork))])
    }

    func note() throws -> CloudRecord? {
        var notes: [CloudRecord] = []
        try store.forEachRecord(in: StoreScope(database: .private), recordType: "Note") { notes.append($0) }
        return notes.first
    }

    @Test func aReferenceIntoAnotherZonePointsThereAndIsExportedSo() throws {
        _ = try Importer(
            store: ContainerStore(backend: store),
            scope: StoreScope(database: .private, zoneID: RecordZoneID(zoneName: "Work")), now: 0
        )
        .run([SourceFile(path: Repository.sample("ToDoItems/ToDoItems.plist"))])
        try importNote(allowDangling: false)
        let note = try #require(try note())
        #expect(note.fields["about"] == .reference(Reference(recordName: "x", zoneName: "Work")))
        #expect(
            CloudKitJSON.value(note.fields["about"]!)
                == #"{"recordName":"x","zoneID":{"zoneName":"Work"},"action":"NONE"}"#)
    }

    @Test func aReferenceIntoAZoneTheStoreLacksFailsUnlessDangling() throws {
        #expect(
            errorMessages { try importNote(allowDangling: false) } == [
                "\(folder.path("note.json")):1:14: field 'about' points into zone 'Work', which does not exist (ZONE_NOT_FOUND); import into that zone first, or pass MappingOptions.allowDangling to keep the reference (at records[0])"
            ])
        #expect(try note() == nil)
        try importNote(allowDangling: true)
        #expect(try note()?.fields["about"] == .reference(Reference(recordName: "x", zoneName: "Work")))
    }
}
