import CloudSeedTestSupport
import Crypto
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedStore

/// `import --model`: the sample app's seed files read as its objects and written as Core Data
/// writes them to CloudKit (CLOUDKIT.md §8).
@Suite struct ModelImportTests {
    let folder: TemporaryFolder
    let scope = StoreScope(database: .private, zoneID: RecordZoneID(zoneName: "com.apple.coredata.cloudkit.zone"))

    init() throws {
        folder = try TemporaryFolder()
    }

    static let seedFiles = ["destinations.csv", "people.csv", "trips.json"].map {
        Repository.sample("TripPlanner/" + $0)
    }

    static func options(model: String = Repository.sample("TripPlanner/TripPlanner.xcdatamodeld")) throws
        -> MappingOptions
    {
        var options = MappingOptions()
        try options.readRows(asObjectsOf: AppModel(contentsOf: [model]))
        return options
    }

    func importSeed(
        into storeName: String = "store.sqlite", files: [String] = seedFiles, options: MappingOptions? = nil
    ) throws -> ImportSummary {
        let store = try ContainerStore(folder.path(storeName))
        return try Importer(store: store, scope: scope, options: options ?? Self.options(), now: 1_700_000_000_000)
            .run(files.map { try SourceFile(path: $0) })
    }

    func records(in storeName: String = "store.sqlite") throws -> [CloudRecord] {
        let store = try ContainerStore(existing: folder.path(storeName))
        var records: [CloudRecord] = []
        try store.backend.forEachRecord(in: scope, recordType: nil) { records.append($0) }
        return records
    }

    /// The name Core Data's record of an object gets: a name-based UUID of the container, the
    /// root entity and the row's name.
    static func objectName(_ root: String, _ name: String, container: String = "iCloud.com.example.cloudseed") -> String
    {
        var hash = SHA256()
        for part in [container, root, name] { hash.update(data: Data((part + "\0").utf8)) }
        var bytes = Array(hash.finalize().prefix(16))
        bytes[6] = bytes[6] & 0x0f | 0x50
        bytes[8] = bytes[8] & 0x3f | 0x80
        let hex = bytes.map { String(format: "%02X", $0) }.joined()
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex.dropFirst(range.lowerBound).prefix(range.count))
        }.joined(separator: "-")
    }

    /// Each record's type, name and fields, one line each in order: what two stores must agree on.
    static func described(_ records: [CloudRecord]) -> [String] {
        records.map { "\($0.recordType) \($0.recordID.recordName) \($0.fields.sorted { $0.key < $1.key })" }.sorted()
    }

    @Test func writesTheSampleAppsObjectsAsCoreDataDoes() throws {
        _ = try importSeed()
        let records = try records()
        #expect(records.allSatisfy { $0.recordID.zoneID.zoneName == "com.apple.coredata.cloudkit.zone" })
        let byName = Dictionary(uniqueKeysWithValues: records.map { ($0.recordID.recordName, $0) })
        let lisbonTrip = Self.objectName("Trip", "Lisbon in spring")
        #expect(lisbonTrip == "2AF54CC9-2BA2-5509-A1A8-5C907EB5BA1D")
        let lisbon = Self.objectName("Destination", "Lisbon")
        let (ana, ben, chen) = (
            Self.objectName("Person", "6f1c2a9e-0b4d-4c1e-9a7f-2d3e4f5a6b7c"),
            Self.objectName("Person", "1a2b3c4d-5e6f-4a8b-9c0d-e1f2a3b4c5d6"), Self.objectName("Person", "Chen Wei")
        )
        let kyotoTrip = Self.objectName("Trip", "Kyoto temples")
        let banffTrip = Self.objectName("Trip", "Banff hiking")
        #expect(
            records.map(\.recordType).sorted() == [
                "CDMR", "CDMR", "CDMR", "CDMR", "CD_Destination", "CD_Destination", "CD_Destination", "CD_Item",
                "CD_Item", "CD_Item", "CD_Item", "CD_Person", "CD_Person", "CD_Person", "CD_Trip", "CD_Trip", "CD_Trip",
            ])
        #expect(
            byName[lisbonTrip]?.fields == [
                "CD_entityName": .string("Trip"), "CD_name": .string("Lisbon in spring"), "CD_budget": .double(2400),
                "CD_isFavorite": .int64(1), "CD_destination": .string(lisbon),
                "CD_startDate": .timestamp(1_807_315_200_000), "CD_endDate": .timestamp(1_807_920_000_000),
            ])
        // What the row leaves out, the model's defaults fill.
        #expect(
            byName[banffTrip]?.fields == [
                "CD_entityName": .string("Trip"), "CD_name": .string("Banff hiking"), "CD_budget": .double(0),
                "CD_isFavorite": .int64(0), "CD_destination": .string(Self.objectName("Destination", "Banff")),
            ])
        #expect(
            byName[ana]?.fields == [
                "CD_entityName": .string("Person"), "CD_name": .string("Ana Lima"),
                "CD_email": .string("ana@example.com"), "CD_id": .string("6F1C2A9E-0B4D-4C1E-9A7F-2D3E4F5A6B7C"),
            ])
        let items = records.filter { $0.recordType == "CD_Item" }.map {
            [$0.fields["CD_title"], $0.fields["CD_quantity"], $0.fields["CD_packed"], $0.fields["CD_trip"]]
        }
        #expect(
            Set(items) == [
                [.string("Passport"), .int64(1), .int64(1), .string(lisbonTrip)],
                [.string("Rain jacket"), .int64(1), .int64(0), .string(lisbonTrip)],
                [.string("Pastel de nata money"), .int64(12), .int64(0), .string(lisbonTrip)],
                [.string("JR pass"), .int64(1), .int64(0), .string(kyotoTrip)],
            ])
        let links = records.filter { $0.recordType == "CDMR" }.map {
            [$0.fields["CD_entityNames"], $0.fields["CD_recordNames"], $0.fields["CD_relationships"]]
        }
        #expect(
            Set(links)
                == Set(
                    [(ana, lisbonTrip), (ben, lisbonTrip), (chen, kyotoTrip), (ana, banffTrip)].map { person, trip in
                        [.string("Person:Trip"), .string("\(person):\(trip)"), .string("trips:companions")]
                    }))
        #expect(
            records.filter { $0.recordType == "CDMR" }.allSatisfy {
                CoreDataRecordNames.isRecordName($0.recordID.recordName)
            })
    }

    @Test func aSecondImportChangesNothingAndAFreshStoreGetsTheSameNames() throws {
        _ = try importSeed()
        let again = try importSeed()
        #expect(again.counts.map(\.created) == [0, 0, 0, 0, 0])
        #expect(again.counts.map(\.unchanged) == [3, 4, 3, 3, 4])
        _ = try importSeed(into: "fresh.sqlite")
        let names = try records().map(\.recordID.recordName).sorted()
        #expect(try names == records(in: "fresh.sqlite").map(\.recordID.recordName).sorted())
    }

    @Test func theSwiftDataClassesImportTheSameRecords() throws {
        _ = try importSeed()
        _ = try importSeed(
            into: "swiftdata.sqlite", options: Self.options(model: Repository.sample("TripPlanner/Models")))
        #expect(try Self.described(records()) == Self.described(records(in: "swiftdata.sqlite")))
    }

    @Test func theObjectsExportedImportIntoTheSameRecords() throws {
        _ = try importSeed()
        var document: [UInt8] = []
        let model = try AppModel(contentsOf: [Repository.sample("TripPlanner/TripPlanner.xcdatamodeld")])
        try ContainerStore(existing: folder.path("store.sqlite")).exportObjects(
            of: model, configuration: nil, in: scope
        ) { { document += $0 } }
        let text = String(decoding: document, as: UTF8.self)
        #expect(
            text.contains(
                #"    {"recordName":"2AF54CC9-2BA2-5509-A1A8-5C907EB5BA1D","budget":2400.0,"endDate":"2027-04-17T00:00:00.000Z","isFavorite":true,"name":"Lisbon in spring","startDate":"2027-04-10T00:00:00.000Z","destination":"FA04DD34-0E88-52A3-AD9E-2EBAA8984401"}"#
            ))
        let exported = try folder.write("export/seed.json", text)
        _ = try importSeed(into: "again.sqlite", files: [exported])
        #expect(try Self.described(records()) == Self.described(records(in: "again.sqlite")))
        let reimported = try importSeed(files: [exported])
        #expect(reimported.counts.map(\.created) == [0, 0, 0, 0, 0])
    }

    @Test func nestedRowsLinkBackByTheInverseTheModelNames() throws {
        let model = try folder.write(
            "Journeys.xcdatamodel/contents",
            AppModelSchemaTests.model(
                """
                    <entity name="Trip" representedClassName="Trip" syncable="YES">
                        <attribute name="name" optional="YES" attributeType="String"/>
                        <relationship name="stops" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Stop" inverseName="journey" inverseEntity="Stop"/>
                    </entity>
                    <entity name="Stop" representedClassName="Stop" syncable="YES">
                        <attribute name="place" optional="YES" attributeType="String"/>
                        <relationship name="journey" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Trip" inverseName="stops" inverseEntity="Trip"/>
                    </entity>
                """))
        let trips = try folder.write(
            "trips.json", #"[{"name": "Coast", "stops": [{"place": "Porto"}, {"place": "Faro"}]}]"#)
        _ = try importSeed(files: [trips], options: Self.options(model: model))
        let trip = Self.objectName("Trip", "Coast")
        let stops = try records().filter { $0.recordType == "CD_Stop" }.map(\.fields)
        #expect(
            Set(stops) == [
                ["CD_entityName": .string("Stop"), "CD_place": .string("Porto"), "CD_journey": .string(trip)],
                ["CD_entityName": .string("Stop"), "CD_place": .string("Faro"), "CD_journey": .string(trip)],
            ])
    }

    @Test func binaryComesFromAFileOrBase64AndALargeValueGoesToItsAssetTwin() throws {
        let model = try folder.write(
            "Photos.xcdatamodel/contents",
            AppModelSchemaTests.model(
                """
                    <entity name="Photo" representedClassName="Photo" syncable="YES">
                        <attribute name="caption" optional="YES" attributeType="String"/>
                        <attribute name="image" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                    </entity>
                """))
        let long = String(repeating: "a", count: 700_001)
        let photos = try folder.write("seed/photos.csv", "caption,image\nsmall,pixel.bin\nencoded,AAEC\n\(long),\n")
        try Data([1, 2, 3, 4]).write(to: folder.url.appendingPathComponent("seed/pixel.bin"))
        _ = try importSeed(files: [photos], options: Self.options(model: model))
        let byCaption = Dictionary(
            try records().map { (($0.fields["CD_caption"]).map { "\($0)".prefix(20) } ?? "none", $0.fields) }
        ) { first, _ in first }
        #expect(byCaption["string(\"small\")"]?["CD_image"] == .bytes(Data([1, 2, 3, 4])))
        #expect(byCaption["string(\"encoded\")"]?["CD_image"] == .bytes(Data([0, 1, 2])))
        let checksum = SHA256.hexDigest(of: Data(long.utf8))
        #expect(
            byCaption["none"] == [
                "CD_entityName": .string("Photo"),
                "CD_caption_ckAsset": .asset(AssetReference(fileChecksum: checksum, size: 700_001)),
            ])
        #expect(
            try ContainerStore(existing: folder.path("store.sqlite")).backend.assetContent(checksum) == Data(long.utf8))
    }

    @Test func thePublicDatabaseTakesTheObjectsInItsDefaultZone() throws {
        let store = try ContainerStore(folder.path("public.sqlite"))
        let publicScope = StoreScope(database: .public)
        _ = try Importer(store: store, scope: publicScope, options: Self.options(), now: 0)
            .run(Self.seedFiles.map { try SourceFile(path: $0) })
        var names: [String] = []
        try store.backend.forEachRecord(in: publicScope, recordType: "CD_Trip") { names.append($0.recordID.recordName) }
        #expect(
            names.sorted()
                == [
                    Self.objectName("Trip", "Lisbon in spring"), Self.objectName("Trip", "Banff hiking"),
                    Self.objectName("Trip", "Kyoto temples"),
                ].sorted())
    }

    @Test func subEntitiesShareTheirRootsTypeAndItsLinks() throws {
        let model = try folder.write(
            "Blog.xcdatamodel/contents",
            AppModelSchemaTests.model(
                """
                    <entity name="Post" representedClassName="Post" isAbstract="YES" syncable="YES">
                        <attribute name="title" optional="YES" attributeType="String"/>
                        <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="posts" inverseEntity="Tag"/>
                    </entity>
                    <entity name="ImagePost" representedClassName="ImagePost" parentEntity="Post" syncable="YES">
                        <attribute name="width" optional="YES" attributeType="Integer 32"/>
                    </entity>
                    <entity name="TextPost" representedClassName="TextPost" parentEntity="Post" syncable="YES">
                        <attribute name="body" optional="YES" attributeType="String"/>
                    </entity>
                    <entity name="Tag" representedClassName="Tag" syncable="YES">
                        <attribute name="name" optional="YES" attributeType="String"/>
                        <relationship name="posts" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Post" inverseName="tags" inverseEntity="Post"/>
                    </entity>
                """))
        let files = [
            try folder.write("blog/tags.csv", "name\nsky\nsea\n"),
            try folder.write(
                "blog/image_posts.jsonl", #"{"title": "Sunset", "width": 1024, "tags": ["sky", "sea"]}"# + "\n"),
            try folder.write("blog/text_posts.csv", "title,body\nHello,First post\n"),
        ]
        _ = try importSeed(files: files, options: Self.options(model: model))
        let records = try records()
        let sunset = Self.objectName("Post", "Sunset")
        #expect(
            Set(records.filter { $0.recordType == "CD_Post" }.map(\.fields)) == [
                ["CD_entityName": .string("ImagePost"), "CD_title": .string("Sunset"), "CD_width": .int64(1024)],
                ["CD_entityName": .string("TextPost"), "CD_title": .string("Hello"), "CD_body": .string("First post")],
            ])
        #expect(
            Set(records.filter { $0.recordType == "CDMR" }.map(\.fields))
                == Set(
                    ["sky", "sea"].map { tag in
                        [
                            "CD_entityNames": .string("Post:Tag"), "CD_relationships": .string("tags:posts"),
                            "CD_recordNames": .string("\(sunset):\(Self.objectName("Tag", tag))"),
                        ]
                    }))
    }

    @Test func bothEndsOfAOneToOneHoldTheLink() throws {
        let model = try folder.write(
            "Covers.xcdatamodel/contents",
            AppModelSchemaTests.model(
                """
                    <entity name="Trip" representedClassName="Trip" syncable="YES">
                        <attribute name="name" optional="YES" attributeType="String"/>
                        <relationship name="cover" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Photo" inverseName="trip" inverseEntity="Photo"/>
                    </entity>
                    <entity name="Photo" representedClassName="Photo" syncable="YES">
                        <attribute name="title" optional="YES" attributeType="String"/>
                        <relationship name="trip" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Trip" inverseName="cover" inverseEntity="Trip"/>
                    </entity>
                """))
        let files = [
            try folder.write("covers/photos.csv", "title\nSunset\nHarbor\n"),
            try folder.write("covers/trips.csv", "name,cover\nCoast,Sunset\nHills,\n"),
        ]
        let options = try Self.options(model: model)
        _ = try importSeed(files: files, options: options)
        let (coast, sunset) = (Self.objectName("Trip", "Coast"), Self.objectName("Photo", "Sunset"))
        let byName = Dictionary(uniqueKeysWithValues: try records().map { ($0.recordID.recordName, $0.fields) })
        #expect(byName[coast]?["CD_cover"] == .string(sunset))
        #expect(byName[sunset]?["CD_trip"] == .string(coast))
        #expect(byName[Self.objectName("Photo", "Harbor")]?["CD_trip"] == nil)
        let again = try importSeed(files: files, options: options)
        #expect(again.counts.map(\.unchanged) == [2, 2])
        #expect(again.counts.map(\.updated) == [0, 0])
    }

    @Test func aKeyPinnedToAnAttributeTakesIt() throws {
        let trips = try folder.write("pinned/trips.json", #"[{"name": "X", "when": "2027-01-01", "place": "Lisbon"}]"#)
        var options = try Self.options()
        options.attributeMatches = try ["Trip.when=startDate", "place=destination"].map(AttributeMatch.init(parsing:))
        _ = try importSeed(files: [Self.seedFiles[0], trips], options: options)
        let trip = try #require(try records().first { $0.recordType == "CD_Trip" })
        #expect(trip.fields["CD_startDate"] == .timestamp(1_798_761_600_000))
        #expect(trip.fields["CD_destination"] == .string(Self.objectName("Destination", "Lisbon")))
        options.attributeMatches = try ["Trip.when=start", "place=destination"].map(AttributeMatch.init(parsing:))
        #expect(
            errorMessages {
                _ = try importSeed(into: "other.sqlite", files: [Self.seedFiles[0], trips], options: options)
            }
            .first
                == "\(trips):1:24: the attribute match 'Trip.when=start': Trip has no attribute or relationship 'start'; the closest is 'startDate'"
        )
    }

    @Test func rowsLinkToObjectsAnEarlierImportWrote() throws {
        _ = try importSeed(files: [Self.seedFiles[0]])
        _ = try importSeed(files: [Self.seedFiles[1]])
        _ = try importSeed(files: [Self.seedFiles[2]])
        _ = try importSeed(into: "whole.sqlite")
        #expect(try Self.described(records()) == Self.described(records(in: "whole.sqlite")))
    }

    @Test func aSeedManifestNamesTheModel() throws {
        let manifest = try FixtureManifest(path: Repository.sample("TripPlanner/seed.json"))
        #expect(manifest.scope.database == .private)
        #expect(manifest.scope.zoneID.zoneName == "com.apple.coredata.cloudkit.zone")
        let store = try ContainerStore(folder.path("seeded.sqlite"))
        let summary = try Seeder(store: store).run(manifest)
        #expect(summary.counts.map(\.created) == [3, 4, 3, 3, 4])
        var names: [String] = []
        try store.backend.forEachRecord(in: manifest.scope, recordType: "CD_Trip") {
            names.append($0.recordID.recordName)
        }
        // Names are the container's own: another container's seed never shares them.
        #expect(names.count == 3)
        #expect(
            names.contains(Self.objectName("Trip", "Lisbon in spring", container: "iCloud.com.example.TripPlanner")))
        #expect(!names.contains(Self.objectName("Trip", "Lisbon in spring")))
    }

    @Test func thePlanShowsEachKeyAndTheAttributeItMatches() throws {
        let text = try importSeed().text
        for line in [
            "  CD_Trip (Trip objects): named by UUIDs made from the natural key {name}, unique in every row  ",
            "    CD_endDate TIMESTAMP (model: Trip.endDate, Date) from key 'end_date'  the attribute match 'Trip.end_date=endDate'\n",
            "    CD_isFavorite INT64 (model: Trip.isFavorite, Boolean) from key 'is_favorite'  the attribute match 'Trip.is_favorite=isFavorite'\n",
            "    CD_destination STRING → Destination (model: Trip.destination, to-one Destination) from key 'destination'  the attribute match 'Trip.destination=destination'\n",
            "    CD_trip STRING → Trip (model: Item.trip, to-one Trip) from key 'trip'  the attribute match 'Item.trip=trip'\n",
            "    CD_recordNames STRING (model: many-to-many links of Trip.companions from key 'companions')\n",
        ] {
            #expect(text.contains(line), "\(line)")
        }
    }

    @Test func refusesRowsThatBreakTheModelWritingNothing() throws {
        let trips = try folder.write(
            "trips.json",
            """
            [
              {"name": "A", "destinaton": "Lisbon"},
              {"name": "B", "is_favorite": "maybe"},
              {"name": "C", "destination": "Atlantis"}
            ]
            """)
        let items = try folder.write("items.csv", "title,quantity,trip\nTent,40000,A\n")
        let destinations = Self.seedFiles[0]
        #expect(
            errorMessages { _ = try importSeed(files: [destinations, trips]) } == [
                "\(trips):2:31: 'destinaton' names no attribute or relationship of Trip in the model; the closest is 'destination': rename the key, pin it with the attribute match 'Trip.destinaton=ATTRIBUTE', or add the attribute to the model"
            ])
        let fixed = try folder.write(
            "fixed/trips.json", #"[{"name": "B", "is_favorite": "maybe"}, {"name": "C", "destination": "Atlantis"}]"#)
        let messages = errorMessages { _ = try importSeed(files: [destinations, fixed, items]) }
        #expect(
            messages == [
                "\(fixed):1:31: invalid attempt to set value type STRING for field 'is_favorite' for type 'Trip', defined to be: INT64 (a Boolean is true or false, YES or NO, 1 or 0); fix the value: the model makes it Trip.isFavorite, Boolean",
                "\(fixed):1:70: no Destination record matches 'Atlantis' (closest: Banff, Kyoto, Lisbon); fix the value, or pass MappingOptions.allowDangling to keep it as a reference to a missing record",
                "\(items):2:6: invalid attempt to set value type INT64 for field 'quantity' for type 'Item', defined to be: INT64 (40000 is out of an Integer 16's range, -32768 to 32767); fix the value: the model makes it Item.quantity, Integer 16",
                "\(items):2:12: no Trip record matches 'A' (closest: B, C); fix the value, or pass MappingOptions.allowDangling to keep it as a reference to a missing record",
            ])
        let written = try FileManager.default.fileExists(atPath: folder.path("store.sqlite")) ? records() : []
        #expect(written.isEmpty)
    }
}
