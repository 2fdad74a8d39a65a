import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct SeederTests {
    let folder: TemporaryFolder
    let store: SQLiteContainerStore
    let galleryScope = StoreScope(container: "iCloud.com.example.Gallery")

    init() throws {
        folder = try TemporaryFolder()
        store = try SQLiteContainerStore(path: folder.path("store.sqlite"))
    }

    func names(_ type: String, _ scope: StoreScope? = nil) throws -> [String] {
        var result: [String] = []
        try store.forEachRecord(in: scope ?? galleryScope, recordType: type) { result.append($0.recordID.recordName) }
        return result
    }

    @Test func seedsTheSampleGalleryOnceAndThenChangesNothing() throws {
        let manifest = try FixtureManifest(path: Repository.sample("gallery.json"))
        let first = try Seeder(store: ContainerStore(backend: store)).run(manifest)
        #expect(first.counts.map(\.created) == [3, 4, 1, 3])
        #expect(try names("Artwork") == ["115 Mei Chen", "116 Mei Chen", "207 Zoe Muller", "308 Tomas Ortega"])
        let second = try Seeder(store: ContainerStore(backend: store)).run(manifest)
        #expect(second.counts.map(\.unchanged) == [3, 4, 1, 3])
        #expect(second.counts.map(\.created) == [0, 0, 0, 0])
        let definition = try store.schemaDefinition(of: galleryScope.schemaScope)
        #expect(
            definition.recordType(named: "Artwork")?.field(named: "title")?.options == [
                .queryable, .searchable, .sortable,
            ])
    }

    @Test func resetRebuildsTheZoneAndPruneDropsWhatTheManifestNoLongerMakes() throws {
        let csv = try folder.write("notes.csv", "title,body\nOne,a\nTwo,b\nThree,c\n")
        let manifest = FixtureManifest(sources: [FixtureSource(file: csv, recordType: "Note")])
        _ = try Seeder(store: ContainerStore(backend: store)).run(manifest)
        try folder.write("notes.csv", "title,body\nOne,a\nTwo,b\n")
        let dryRun = try Seeder(store: ContainerStore(backend: store), prune: true, dryRun: true).run(manifest)
        #expect(dryRun.counts.map(\.deleted) == [1])
        #expect(try names("Note", StoreScope()) == ["One", "Three", "Two"])
        let pruned = try Seeder(store: ContainerStore(backend: store), prune: true).run(manifest)
        #expect(pruned.counts.map(\.deleted) == [1])
        #expect(try names("Note", StoreScope()) == ["One", "Two"])
        let reset = try Seeder(store: ContainerStore(backend: store), reset: true).run(manifest)
        #expect(reset.counts.map(\.created) == [2])
        #expect(reset.counts.map(\.deleted) == [2])
    }

    @Test func readsYAMLManifestsRelativeToThemselves() throws {
        try folder.write("data/items.csv", "name,price\nPen,1.5\n")
        let path = try folder.write(
            "fixtures.yaml",
            """
            container: iCloud.com.example.Shop
            environment: development
            sources:
              - file: data/items.csv
                recordType: Item
                recordName: "{name}"
                fields:
                  price: {type: DOUBLE}
            """)
        let summary = try Seeder(store: ContainerStore(backend: store)).run(try FixtureManifest(path: path))
        #expect(summary.counts.map(\.created) == [1])
        #expect(try names("Item", StoreScope(container: "iCloud.com.example.Shop")) == ["Pen"])
    }

    @Test func aManifestPinsTheOrderOfDayAndMonth() throws {
        try folder.write("data/orders.csv", "name,placed\nA,01/02/2025\nB,03/04/2025\n")
        let manifest = """
            sources:
              - file: data/orders.csv
                recordType: Order
                fields:
                  placed: {dateFormat: FORMAT}
            """
        let path = try folder.write("orders.yaml", manifest.replacingOccurrences(of: "FORMAT", with: "dd/MM/yyyy"))
        let summary = try Seeder(store: ContainerStore(backend: store)).run(try FixtureManifest(path: path))
        #expect(summary.plan.recordType("Order")?.fields["placed"]?.type == .timestamp)
        var placed: [String: RecordValue] = [:]
        try store.forEachRecord(in: StoreScope(), recordType: "Order") {
            placed[$0.recordID.recordName] = $0.fields["placed"]
        }
        // 1 February and 3 April 2025.
        #expect(placed == ["A": .timestamp(1_738_368_000_000), "B": .timestamp(1_743_638_400_000)])
        let bad = try folder.write("bad.yaml", manifest.replacingOccurrences(of: "FORMAT", with: "yyyy-MM-dd"))
        #expect(
            throws: CloudSeedError(
                .malformedSource, "\"dateFormat\" is MM/dd/yyyy or dd/MM/yyyy, with /, . or - between the numbers",
                at: SourcePosition(file: bad, line: 5, column: 28))
        ) {
            _ = try FixtureManifest(path: bad)
        }
    }

    @Test func unknownKeysAreErrorsAtTheirLine() throws {
        let json = try folder.write("bad.json", "{\"sources\": [{\"file\": \"a.csv\", \"recordTyp\": \"Item\"}]}")
        #expect(
            throws: CloudSeedError(
                .malformedSource,
                "unknown key \"recordTyp\" in a source; the keys are fields, file, format, recordName, recordType",
                at: SourcePosition(file: json, line: 1, column: 45))
        ) {
            _ = try FixtureManifest(path: json)
        }
        let yaml = try folder.write("bad.yaml", "sources:\n  - file: a.csv\n    colour: red\n")
        #expect(
            throws: CloudSeedError(
                .malformedSource,
                "unknown key \"colour\" in a source; the keys are fields, file, format, recordName, recordType",
                at: SourcePosition(file: yaml, line: 3, column: 13))
        ) {
            _ = try FixtureManifest(path: yaml)
        }
    }
}
