import CloudSeedTestSupport
import Crypto
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct BackupRoundTripTests {
    let fixture: BackupFixture
    let original: SQLiteContainerStore

    init() throws {
        fixture = try BackupFixture()
        original = try fixture.filledStore()
    }

    var folder: TemporaryFolder { fixture.folder }

    @Test func backupRestoreBackupGivesTheSameFilesApartFromTheTime() throws {
        let first = try BackupWriter(store: ContainerStore(backend: original), now: 1_800_000_000_000).write(
            to: folder.path("first"))
        let restored = try SQLiteContainerStore(path: folder.path("restored.sqlite"))
        try Restorer(store: ContainerStore(backend: restored)).restore(BackupBundle(verifying: folder.path("first")))
        let second = try BackupWriter(store: ContainerStore(backend: restored), now: 1_800_000_060_000).write(
            to: folder.path("second"))

        var firstFiles = try BackupFixture.files(in: folder.path("first"))
        var secondFiles = try BackupFixture.files(in: folder.path("second"))
        let firstManifest = firstFiles.removeValue(forKey: "manifest.json") ?? Data()
        let secondManifest = secondFiles.removeValue(forKey: "manifest.json") ?? Data()
        #expect(firstFiles == secondFiles)
        #expect(
            String(decoding: firstManifest, as: UTF8.self).replacingOccurrences(
                of: "2027-01-15T08:00:00.000Z", with: "2027-01-15T08:01:00.000Z")
                == String(decoding: secondManifest, as: UTF8.self))
        var expected = first
        expected.created = 1_800_000_060_000
        #expect(second == expected)
        #expect(
            firstFiles.keys.sorted() == [
                "assets/2945ba77d86b89e2cebb517fcb9ced0de61877130329db1ae4965de18775d792",
                "assets/7e5c454345f2aead52b58816d36bdd59655c1ca5635071cd6340ae22edff217a",
                "assets/c8bf296aaa60eac15f5e383eabf4bce5c02f46251d7f5d740f4d5f46ed3389a3",
                "assets/f7bafd2860c96a3026336d571459ff3901ece758dd4e6f7f783b2dc5eae7b6c8",
                "records/development/private/_alice/Work/ToDoItem.jsonl",
                "records/development/public/__defaultOwner__/_defaultZone/Artist.jsonl",
                "records/development/public/__defaultOwner__/_defaultZone/Artwork.jsonl",
                "records/development/public/__defaultOwner__/_defaultZone/Specimen.jsonl",
                "records/development/shared/_bob/Family/Person.jsonl",
                "records/production/public/__defaultOwner__/_defaultZone/ToDoItem.jsonl",
                "schema/development.ckdb",
                "schema/production.ckdb",
            ])
    }

    @Test func restoredRecordsSchemasAndAssetsEqualTheOriginals() throws {
        try BackupWriter(store: ContainerStore(backend: original)).write(to: folder.path("backup"))
        let restored = try SQLiteContainerStore(path: folder.path("restored.sqlite"))
        let manifest = try Restorer(store: ContainerStore(backend: restored)).restore(
            BackupBundle(verifying: folder.path("backup")))
        #expect(manifest.summary == "16 records in 4 zones, 4 assets")

        let records = try BackupFixture.records(of: original)
        #expect(records.count == 16)
        #expect(try BackupFixture.records(of: restored) == records)
        for environment in ContainerEnvironment.allCases {
            let scope = SchemaScope(container: StoreScope.defaultContainer, environment: environment)
            #expect(try restored.schemaDefinition(of: scope) == original.schemaDefinition(of: scope))
        }
        let specimen = try #require(records.first { $0.recordID.recordName == "every-type" })
        #expect(
            specimen.fields["picture"]
                == .asset(AssetReference(fileChecksum: "AYz3bAAPNAkUFj6Lsw1LKl0GBQBx", size: 48213)))
        #expect(try restored.assetContent("AYz3bAAPNAkUFj6Lsw1LKl0GBQBx") == nil)
        let image = try Data(contentsOf: URL(fileURLWithPath: Repository.sample("Gallery/images/mackerricher.png")))
        #expect(try restored.assetContent(SHA256.hexDigest(of: image)) == image)
    }

    @Test func everyFieldTypeComesBackExactly() throws {
        try BackupWriter(store: ContainerStore(backend: original)).write(to: folder.path("backup"))
        let restored = try SQLiteContainerStore(path: folder.path("restored.sqlite"))
        try Restorer(store: ContainerStore(backend: restored)).restore(BackupBundle(verifying: folder.path("backup")))
        var specimens: [CloudRecord] = []
        try restored.forEachRecord(in: StoreScope(), recordType: "Specimen") { specimens.append($0) }
        let fields = try #require(specimens.first?.fields)
        #expect(
            specimens.first?.system
                == SystemFields(
                    createdTimestamp: 1_700_000_000_000, modifiedTimestamp: 1_700_000_000_000, changeTag: "1"))
        #expect(fields["smallest"] == .int64(.min))
        #expect(fields["huge"] == .double(-1.7976931348623157e308))
        #expect(fields["tiny"] == .double(.leastNonzeroMagnitude))
        #expect(fields["whole"] == .double(3))
        #expect(fields["raw"] == .bytes(Data([0, 1, 2, 255])))
        #expect(fields["born"] == .timestamp(-2_208_988_800_000))
        #expect(
            fields["place"]
                == .location(
                    Location(
                        latitude: -33.8688, longitude: 151.2093, altitude: 58.5, horizontalAccuracy: 5,
                        verticalAccuracy: 3.5,
                        course: 90, speed: 1.25, timestamp: 1_572_220_800_000)))
        #expect(fields["parent"] == .reference(Reference(recordName: "Mei Chen", action: .deleteSelf)))
        #expect(fields["names"] == .list(.string, [.string("a"), .string("Ünïcödé"), .string("")]))
        #expect(
            fields["dates"]
                == .list(.timestamp, [.timestamp(-62_135_596_800_000), .timestamp(0), .timestamp(253_402_300_799_999)]))
        #expect(
            fields["refs"]
                == .list(
                    .reference,
                    [
                        .reference(Reference(recordName: "Mei Chen")),
                        .reference(Reference(recordName: "Tomas Ortega", action: .deleteSelf)),
                    ]))
        #expect(
            fields["pictures"]
                == .list(.asset, [.asset(AssetReference(fileChecksum: "AYz3bAAPNAkUFj6Lsw1LKl0GBQBx", size: 48213))]))
        #expect(specimens.map(\.recordID.recordName) == ["every-type", "sparse"])
        #expect(specimens.last?.fields == ["text": .string("only text is set")])
    }

    @Test func changeTagsGivenAfterARestoreFollowTheRestoredOnes() throws {
        try BackupWriter(store: ContainerStore(backend: original)).write(to: folder.path("backup"))
        let highest = try BackupFixture.records(of: original).compactMap { Int64($0.system.changeTag, radix: 36) }.max()
        #expect(highest == 16)
        let restored = try SQLiteContainerStore(path: folder.path("restored.sqlite"))
        try Restorer(store: ContainerStore(backend: restored)).restore(BackupBundle(verifying: folder.path("backup")))
        #expect(try restored.write { try $0.nextChangeTag() } == "h")
    }

    @Test func restoresIntoAnotherContainer() throws {
        try BackupWriter(store: ContainerStore(backend: original)).write(to: folder.path("backup"))
        let restored = try SQLiteContainerStore(path: folder.path("restored.sqlite"))
        let manifest = try Restorer(store: ContainerStore(backend: restored), container: "iCloud.com.example.Copy")
            .restore(
                BackupBundle(verifying: folder.path("backup")))
        #expect(manifest.container == StoreScope.defaultContainer)
        #expect(
            try BackupFixture.records(of: restored, container: "iCloud.com.example.Copy")
                == BackupFixture.records(of: original))
        #expect(try BackupFixture.records(of: restored).isEmpty)
    }

    @Test func restoredStoresBackUpWithTheSameCountsAsTheInventory() throws {
        let manifest = try BackupWriter(store: ContainerStore(backend: original), now: 0).write(
            to: folder.path("backup"))
        #expect(
            manifest.environments == [
                BackupManifest.Environment(
                    environment: .development,
                    zones: [
                        BackupManifest.Zone(
                            database: .private, zoneID: BackupFixture.aliceWork.zoneID, recordCounts: ["ToDoItem": 3]),
                        BackupManifest.Zone(
                            database: .public, zoneID: RecordZoneID(),
                            recordCounts: ["Artist": 3, "Artwork": 4, "Specimen": 2]),
                        BackupManifest.Zone(
                            database: .shared, zoneID: BackupFixture.bobFamily.zoneID, recordCounts: ["Person": 1]),
                    ]),
                BackupManifest.Environment(
                    environment: .production,
                    zones: [
                        BackupManifest.Zone(database: .public, zoneID: RecordZoneID(), recordCounts: ["ToDoItem": 3])
                    ]),
            ])
        let text = try String(contentsOfFile: folder.path("backup/manifest.json"), encoding: .utf8)
        #expect(
            text.hasPrefix(
                """
                {
                  "format":1,
                  "tool":"cloudseed 0.1",
                  "created":"1970-01-01T00:00:00.000Z",
                  "container":"iCloud.com.example.cloudseed",
                  "environments":[
                    {"environment":"development","zones":[
                      {"database":"private","owner":"_alice","zone":"Work","recordCounts":{"ToDoItem":3}},
                      {"database":"public","owner":"__defaultOwner__","zone":"_defaultZone","recordCounts":{"Artist":3,"Artwork":4,"Specimen":2}},
                      {"database":"shared","owner":"_bob","zone":"Family","recordCounts":{"Person":1}}
                    ]},
                    {"environment":"production","zones":[
                      {"database":"public","owner":"__defaultOwner__","zone":"_defaultZone","recordCounts":{"ToDoItem":3}}
                    ]}
                  ],
                  "files":[

                """))
        #expect(try BackupManifest.parse(Array(text.utf8), file: "manifest.json") == manifest)
    }
}
