import CloudSeedTestSupport
import Crypto
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

@Suite struct ReferenceAndAssetTests {
    let folder: TemporaryFolder
    let store: SQLiteContainerStore

    init() throws {
        folder = try TemporaryFolder()
        store = try SQLiteContainerStore(path: folder.path("store.sqlite"))
    }

    func importFiles(_ paths: [String], options: MappingOptions = MappingOptions()) throws -> ImportSummary {
        try Importer(store: ContainerStore(backend: store), scope: StoreScope(), options: options, now: 0).run(
            paths.map { try SourceFile(path: $0) })
    }

    func records(_ type: String) throws -> [CloudRecord] {
        var result: [CloudRecord] = []
        try store.forEachRecord(in: StoreScope(), recordType: type) { result.append($0) }
        return result
    }

    @Test(arguments: [["artists.csv", "artworks.plist"], ["artworks.plist", "artists.csv"]])
    func theGalleryConnectsInEitherOrder(files: [String]) throws {
        let artworks = Repository.sample("Gallery/artworks.plist")
        let artists = Repository.sample("Gallery/artists.csv")
        let summary = try importFiles(files.map { $0 == "artists.csv" ? artists : artworks })
        let artwork = try #require(summary.plan.recordType("Artwork"))
        #expect(
            artwork.fields["artist"]
                == PlannedField(
                    type: .reference, rule: .inferred, target: "Artist",
                    reason: "its name and every value name Artist records"))
        #expect(artwork.fields["image"]?.type == .asset)
        #expect(try records("Artist").map(\.recordID.recordName) == ["Mei Chen", "Tomas Ortega", "Zoe Muller"])
        let byTitle = Dictionary(uniqueKeysWithValues: try records("Artwork").map { ($0.fields["title"], $0) })
        #expect(
            byTitle[.string("Über den Dächern")]?.fields["artist"] == .reference(Reference(recordName: "Zoe Muller")))
        let image = try Data(contentsOf: URL(fileURLWithPath: Repository.sample("Gallery/images/mackerricher.png")))
        guard case .asset(let asset)? = byTitle[.string("MacKerricher State Park")]?.fields["image"] else {
            Issue.record("no image asset")
            return
        }
        #expect(asset == AssetReference(fileChecksum: SHA256.hexDigest(of: image), size: Int64(image.count)))
        #expect(try store.assetContent(asset.fileChecksum) == image)
    }

    @Test func namesResolveThroughCaseSpacesDiacriticsAndCommas() throws {
        let artists = try folder.write("artists.csv", "firstName,lastName\nMei,Chen\nZoë,Müller\n")
        let artworks = try folder.write(
            "artworks.csv", "title,artist\nA,\"Chen, Mei\"\nB,mei chen\nC,Mei  Chen\nD,zoe muller\n")
        _ = try importFiles([artworks, artists])
        #expect(
            try records("Artwork").map(\.fields["artist"]) == [
                .reference(Reference(recordName: "Mei Chen")), .reference(Reference(recordName: "Mei Chen")),
                .reference(Reference(recordName: "Mei Chen")), .reference(Reference(recordName: "Zoe Muller")),
            ])
    }

    @Test func aFieldWithAValueThatNamesNoRecordIsNotAReferenceUntilPinned() throws {
        let artists = try folder.write("artists.csv", "firstName,lastName\nMei,Chen\nZoë,Müller\nTomás,Ortega\n")
        let artworks = try folder.write("artworks.csv", "title,artist\nA,Mei Chen\nB,Mei Chan\n")
        let summary = try importFiles([artists, artworks])
        #expect(
            summary.plan.recordType("Artwork")?.fields["artist"]
                == PlannedField(
                    type: .string, rule: .inferred,
                    reason:
                        "not a reference: 1 of 2 values name no Artist record ('Mei Chan'); \(option: .reference("Artwork.artist:Artist")) makes it one"
                ))
        #expect(try records("Artwork").map(\.fields["artist"]) == [.string("Mei Chen"), .string("Mei Chan")])

        var options = MappingOptions()
        options.references = [try ReferenceDeclaration(parsing: "Artwork.artist:Artist")]
        let store = try SQLiteContainerStore(path: folder.path("pinned.sqlite"))
        #expect(
            errorMessages {
                _ = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), options: options, now: 0)
                    .run([
                        try SourceFile(path: artists), try SourceFile(path: artworks),
                    ])
            } == [
                "\(artworks):3:3: no Artist record matches 'Mei Chan' (closest: Mei Chen, Zoe Muller, Tomas Ortega); fix the value, or pass MappingOptions.allowDangling to keep it as a reference to a missing record"
            ])
        #expect(try store.inventory().zones.isEmpty)
        options.allowDangling = true
        _ = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), options: options, now: 0).run([
            try SourceFile(path: artists), try SourceFile(path: artworks),
        ])
        var artworkRecords: [CloudRecord] = []
        try store.forEachRecord(in: StoreScope(), recordType: "Artwork") { artworkRecords.append($0) }
        #expect(
            artworkRecords.map(\.fields["artist"]) == [
                .reference(Reference(recordName: "Mei Chen")), .reference(Reference(recordName: "Mei Chan")),
            ])
    }

    @Test func twoArtistsOfOneNameAreAmbiguous() throws {
        let artists = try folder.write("artists.csv", "recordName,firstName,lastName\nmei-1,Mei,Chen\nmei-2,Mei,Chen\n")
        let artworks = try folder.write("artworks.csv", "title,artist\nA,Mei Chen\n")
        #expect(
            errorMessages { _ = try importFiles([artists, artworks]) } == [
                "\(artworks):2:3: 'Mei Chen' matches more than one Artist: mei-1, mei-2; make the value or the Artist records unambiguous"
            ])
    }

    @Test func laterImportsResolveAgainstTheStore() throws {
        _ = try importFiles([Repository.sample("Gallery/artists.csv")])
        let artworks = try folder.write("artworks.csv", "title,artist\nLate,\"Ortega, Tomás\"\n")
        let summary = try importFiles([artworks])
        #expect(summary.plan.recordType("Artwork")?.fields["artist"]?.type == .reference)
        #expect(try records("Artwork").first?.fields["artist"] == .reference(Reference(recordName: "Tomas Ortega")))
    }

    /// A value written as the source wrote a record's name finds the record that name became,
    /// even where folding case would find another too.
    @Test func aNameAsTheSourceWroteItFindsTheRecordItBecame() throws {
        let artists = try folder.write("artists.csv", "recordName,firstName\nŁukasz-7,Łukasz\nlukasz-7,Luke\n")
        _ = try importFiles([artists])
        #expect(try records("Artist").map(\.recordID.recordName) == ["Lukasz-7", "lukasz-7"])
        let artworks = try folder.write("artworks.csv", "title,artist\nA,Łukasz-7\nB,lukasz-7\n")
        _ = try importFiles([artworks])
        #expect(
            try records("Artwork").map(\.fields["artist"]) == [
                .reference(Reference(recordName: "Lukasz-7")), .reference(Reference(recordName: "lukasz-7")),
            ])
    }

    @Test func reimportingTheGalleryChangesNothingAndStoresSharedImagesOnce() throws {
        let image = try Data(contentsOf: URL(fileURLWithPath: Repository.sample("Gallery/images/mackerricher.png")))
        try FileManager.default.createDirectory(atPath: folder.path("images"), withIntermediateDirectories: true)
        try image.write(to: URL(fileURLWithPath: folder.path("images/one.png")))
        try image.write(to: URL(fileURLWithPath: folder.path("images/two.png")))
        let photos = try folder.write("photos.csv", "title,image\nFirst,images/one.png\nSecond,images/two.png\n")
        _ = try importFiles([
            photos, Repository.sample("Gallery/artists.csv"), Repository.sample("Gallery/artworks.plist"),
        ])
        let again = try importFiles([
            photos, Repository.sample("Gallery/artists.csv"), Repository.sample("Gallery/artworks.plist"),
        ])
        #expect(again.counts.map(\.unchanged) == [3, 4, 2])
        #expect(again.counts.map(\.created) == [0, 0, 0])
        let database = try SQLiteDatabase(path: folder.path("store.sqlite"))
        #expect(try database.rows("SELECT count(*) FROM _cloudseed_assets") == [[.integer(4)]])
    }

    @Test func aMissingImageFailsWithItsRow() throws {
        let photos = try folder.write("photos.csv", "title,image\nFirst,missing.png\n")
        var options = MappingOptions()
        options.fieldTypes = [FieldTypeOverride(field: "image", type: .asset)]
        #expect(
            errorMessages { _ = try importFiles([photos], options: options) } == [
                "\(photos):2:7: the asset file 'missing.png' does not exist (looked in \(folder.url.standardizedFileURL.resolvingSymlinksInPath().path)); fix the path, or pass MappingOptions.allowDangling to leave it out"
            ])
    }

    @Test func anImageColumnWithOneFileMissingIsStillAssetsAndTheMissingOneAnError() throws {
        for name in ["Gai Yang.jpg", "Som Tam.jpg", "Phat thai.jpg"] {
            try Data(name.utf8).write(to: URL(fileURLWithPath: folder.path(name)))
        }
        let dishes = try folder.write(
            "dishes.csv", "name,image\nGai Yang,Gai Yang.jpg\nSom Tam,Som Tam.jpg\nPhat Thai,Phat Thai.jpg\n")
        let base = folder.url.standardizedFileURL.resolvingSymlinksInPath().path
        #expect(
            errorMessages { _ = try importFiles([dishes]) } == [
                "\(dishes):4:11: the asset file 'Phat Thai.jpg' does not exist (looked in \(base); closest: 'Phat thai.jpg'); fix the path, or pass MappingOptions.allowDangling to leave it out"
            ])
        #expect(try records("Dish").isEmpty)

        var options = MappingOptions()
        options.allowDangling = true
        let summary = try importFiles([dishes], options: options)
        #expect(
            summary.plan.recordType("Dish")?.fields["image"]?.reason
                == "2 of 3 values are paths to existing media or document files; the 1 naming none ('Phat Thai.jpg') are errors, or left out with \(option: .allowDangling)"
        )
        #expect(
            try records("Dish").map {
                "\($0.recordID.recordName): \($0.fields["image"]?.fieldType.wireName ?? "unset")"
            }
                == ["Gai Yang: ASSETID", "Phat Thai: unset", "Som Tam: ASSETID"])
    }

    @Test func imageNamesWithNoFilesBesideThemStayText() throws {
        let products = try folder.write("products.csv", "name,photo\nFlan,flan.jpg\nPie,pie.jpg\n")
        let summary = try importFiles([products])
        #expect(summary.plan.recordType("Product")?.fields["photo"]?.type == .string)
    }

    @Test func twoMegabytesOfTextFailButImportAsAnAsset() throws {
        let text = String(repeating: "x", count: 2_000_000)
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder.path("notes.txt")))
        let inline = try folder.write("inline.csv", "title,body\nbig,\(text)\n")
        #expect(
            errorMessages { _ = try importFiles([inline]) } == [
                "\(inline):2:1: record 'big' of type Inline is 2000003 bytes, over CloudKit's limit of 1048576 bytes; move large values into an ASSET field"
            ])
        let asAsset = try folder.write("attached.csv", "title,body\nbig,notes.txt\n")
        let summary = try importFiles([asAsset])
        #expect(summary.plan.recordType("Attached")?.fields["body"]?.type == .asset)
    }

    @Test func declaredReferencesCarryDeleteSelfAndDeleteWithTheirParent() throws {
        let artists = Repository.sample("Gallery/artists.csv")
        var options = MappingOptions()
        options.references = [try ReferenceDeclaration(parsing: "Artwork.artist:Artist:DELETE_SELF")]
        _ = try importFiles([artists, Repository.sample("Gallery/artworks.csv")], options: options)
        #expect(
            try records("Artwork").filter {
                $0.fields["artist"] == .reference(Reference(recordName: "Mei Chen", action: .deleteSelf))
            }.count == 2)
        let deleted = try RecordDeleter(store: store, scope: StoreScope()).delete(["Mei Chen"], ofType: "Artist")
        #expect(deleted == ["Artist/Mei Chen", "Artwork/MacKerricher State Park", "Artwork/Rainy Day in Mendocino"])
        #expect(try records("Artwork").count == 2)
    }

    @Test func locationsFromColumnPairsAndSingleColumns() throws {
        let pairs = try folder.write("places.csv", "name,lat,lng\nHere,39.3,-123.8\n")
        let single = try folder.write("communes.csv", "name,gps\nParis,\"48.85, 2.35\"\n")
        var options = MappingOptions()
        options.locations = [try LocationDeclaration(parsing: "Commune.where=gps")]
        _ = try importFiles([pairs, single], options: options)
        #expect(
            try records("Place").first?.fields["location"] == .location(Location(latitude: 39.3, longitude: -123.8)))
        #expect(try records("Commune").first?.fields["where"] == .location(Location(latitude: 48.85, longitude: 2.35)))
        let wrong = try folder.write("wrong.csv", "name,lat,lng\nNowhere,95,0\n")
        #expect(
            errorMessages { _ = try importFiles([wrong]) } == [
                "\(wrong):2:9: invalid attempt to set value type LOCATION for field 'location' for type 'Wrong', defined to be: LOCATION (latitude 95.0 is outside -90 to 90); fix the value"
            ])
    }

    @Test func dryRunsCountButWriteNothing() throws {
        let summary = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 0).run(
            [SourceFile(path: Repository.sample("ToDoItems/ToDoItems.csv"))], dryRun: true)
        #expect(summary.counts.map(\.created) == [3])
        #expect(
            summary.text.hasPrefix(
                "Dry run, nothing written; importing into iCloud.com.example.cloudseed development public _defaultZone would give:"
            ))
        #expect(try store.inventory().zones.isEmpty)
        #expect(try store.schema(of: StoreScope().schemaScope).recordTypes.isEmpty)
    }

    @Test func randomNamesOnRequest() throws {
        var options = MappingOptions()
        options.randomNames = true
        _ = try importFiles([Repository.sample("ToDoItems/ToDoItems.csv")], options: options)
        let names = try records("ToDoItem").map(\.recordID.recordName)
        #expect(Set(names).count == 3)
        for name in names {
            // Written as Foundation writes a UUID, of version 4 and RFC 4122's variant.
            #expect(UUID(uuidString: name)?.uuidString == name)
            #expect(Array(name)[14] == "4")
            #expect("89AB".contains(Array(name)[19]))
        }
    }
}
