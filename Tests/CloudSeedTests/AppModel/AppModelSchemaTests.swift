import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudSeed

/// `schema from-model`: the schema Core Data's `initializeCloudKitSchema` makes, compared whole
/// with the texts checked in under `Schemas/` (and `SampleData/TripPlanner/schema.ckdb`).
@Suite struct AppModelSchemaTests {
    static let schemas = Repository.root.appendingPathComponent("Tests/CloudSeedTests/AppModel/Schemas")

    static func expected(_ name: String) throws -> String {
        try String(contentsOf: schemas.appendingPathComponent(name + ".ckdb"), encoding: .utf8)
    }

    static let examples = [
        ("Aidoku_Aidoku_0.9.xml", "Aidoku"),
        ("apple_sample-cloudkit-coredatasync_CoreDataSync.xml", "CoreDataSync"),
        ("delawaremathguy_CoreDataCloudKitShare_CoreDataCloudKitShare.xml", "CoreDataCloudKitShare"),
    ]

    @Test(.enabled(if: SharedExamples.isAvailable), arguments: examples)
    func printsTheSchemaOfEachExampleModel(_ file: String, _ name: String) throws {
        let folder = try TemporaryFolder()
        let contents = try String(contentsOfFile: SharedExamples.path("coredata/" + file), encoding: .utf8)
        let older = try String(
            contentsOfFile: SharedExamples.path(
                "coredata/" + (name == "CoreDataSync" ? Self.examples[2].0 : Self.examples[1].0)),
            encoding: .utf8)
        // A package with two versions: the one .xccurrentversion names is read, the other ignored.
        try folder.write("\(name).xcdatamodeld/\(name) 1.xcdatamodel/contents", older)
        try folder.write("\(name).xcdatamodeld/\(name) 2.xcdatamodel/contents", contents)
        try folder.write("\(name).xcdatamodeld/.xccurrentversion", Self.currentVersion("\(name) 2.xcdatamodel"))
        let expected = try Self.expected(name)
        for path in [
            folder.path("\(name).xcdatamodeld"), folder.path("\(name).xcdatamodeld/\(name) 2.xcdatamodel"),
            folder.path("\(name).xcdatamodeld/\(name) 2.xcdatamodel/contents"),
        ] {
            let schema = try AppModel(contentsOf: [path]).schema()
            #expect(schema.cksl == expected, "\(path)")
            #expect(schema.validate().filter { $0.severity == .error }.isEmpty)
            #expect(try SchemaDefinition(cksl: schema.cksl) == schema)
        }
    }

    static func currentVersion(_ name: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>_XCCurrentVersionName</key>
        \t<string>\(name)</string>
        </dict>
        </plist>
        """
    }

    @Test(.enabled(if: SharedExamples.isAvailable))
    func leavesOutTheEntitiesOfAConfigurationNotUsedWithCloudKit() throws {
        let model = try AppModel(contentsOf: [SharedExamples.path("coredata/Aidoku_Aidoku_0.9.xml")])
        let types = try model.schema().recordTypes.map(\.name)
        #expect(
            types == [
                "CDMR", "CD_Category", "CD_Chapter", "CD_History", "CD_LibraryManga", "CD_LocalFileInfo", "CD_Manga",
                "CD_MangaUpdate", "CD_ReadingSession", "CD_Track", "CD_Vocab",
            ])
        #expect(try model.schema(configuration: "Cloud") == model.schema())
        #expect(
            errorMessages { _ = try model.schema(configuration: "Local") } == [
                "\(SharedExamples.path("coredata/Aidoku_Aidoku_0.9.xml")):156:5: configuration 'Local' is not used with CloudKit, so its entities do not sync; name one that is (Cloud), or tick Used with CloudKit for it in Xcode"
            ])
        #expect(
            errorMessages { _ = try model.schema(configuration: "Phone") } == [
                "the model has no configuration 'Phone'; name one of Default, Cloud, Local"
            ])
    }

    @Test func theSampleAppsSwiftDataClassesGiveTheSchemaOfItsCoreDataModel() throws {
        let coreData = try AppModel(contentsOf: [Repository.sample("TripPlanner/TripPlanner.xcdatamodeld")]).schema()
        let swiftData = try AppModel(contentsOf: [Repository.sample("TripPlanner/Models")]).schema()
        let checkedIn = try String(contentsOfFile: Repository.sample("TripPlanner/schema.ckdb"), encoding: .utf8)
        #expect(coreData.cksl == checkedIn)
        #expect(swiftData.cksl == checkedIn)
    }

    @Test func namesEveryFieldAsCoreDataDoes() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(
            "Post.xcdatamodel/contents",
            Self.model(
                """
                    <entity name="Post" representedClassName="Post" isAbstract="YES" syncable="YES">
                        <attribute name="title" optional="YES" attributeType="String"/>
                        <attribute name="secret" optional="YES" attributeType="String" allowsCloudEncryption="YES"/>
                        <attribute name="draft" optional="YES" attributeType="String" transient="YES"/>
                        <attribute name="link" optional="YES" attributeType="URI"/>
                        <attribute name="key" optional="YES" attributeType="UUID"/>
                        <attribute name="score" optional="YES" attributeType="Decimal"/>
                        <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="posts" inverseEntity="Tag"/>
                    </entity>
                    <entity name="ImagePost" representedClassName="ImagePost" parentEntity="Post" syncable="YES">
                        <attribute name="image" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                    </entity>
                    <entity name="Tag" representedClassName="Tag" syncable="YES">
                        <attribute name="name" optional="YES" attributeType="String"/>
                        <relationship name="posts" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Post" inverseName="tags" inverseEntity="Post"/>
                    </entity>
                """))
        let schema = try AppModel(contentsOf: [path]).schema(database: .public)
        #expect(schema.recordTypes.map(\.name) == ["CDMR", "CD_Post", "CD_Tag"])
        let post = try #require(schema.recordType(named: "CD_Post"))
        #expect(
            post.fields.map { "\($0.name) \($0.declaration)" } == [
                "CD_entityName STRING QUERYABLE SEARCHABLE SORTABLE", "CD_image BYTES QUERYABLE SORTABLE",
                "CD_image_ckAsset ASSET", "CD_key STRING QUERYABLE SEARCHABLE SORTABLE",
                "CD_link STRING QUERYABLE SEARCHABLE SORTABLE", "CD_link_ckAsset ASSET",
                "CD_moveReceipt BYTES QUERYABLE SORTABLE", "CD_moveReceipt_ckAsset ASSET",
                "CD_score DOUBLE QUERYABLE SORTABLE", "CD_secret ENCRYPTED STRING", "CD_secret_ckAsset ASSET",
                "CD_title STRING QUERYABLE SEARCHABLE SORTABLE", "CD_title_ckAsset ASSET", "___createTime TIMESTAMP",
                "___createdBy REFERENCE", "___etag STRING", "___modTime TIMESTAMP QUERYABLE SORTABLE",
                "___modifiedBy REFERENCE", "___recordID REFERENCE QUERYABLE",
            ])
    }

    @Test func refusesAModelThatBreaksCloudKitsRulesNamingEachViolation() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(
            "Broken.xcdatamodel/contents",
            Self.model(
                """
                    <entity name="Trip" representedClassName="Trip" syncable="YES">
                        <attribute name="name" attributeType="String"/>
                        <attribute name="handle" optional="YES" attributeType="Object ID"/>
                        <attribute name="blob" optional="YES" attributeType="Undefined"/>
                        <relationship name="stops" toMany="YES" ordered="YES" deletionRule="Deny" destinationEntity="Stop"/>
                        <uniquenessConstraints>
                            <uniquenessConstraint>
                                <constraint value="name"/>
                            </uniquenessConstraint>
                        </uniquenessConstraints>
                    </entity>
                    <entity name="Stop" representedClassName="Stop" syncable="YES">
                        <attribute name="title" optional="YES" attributeType="String"/>
                    </entity>
                """))
        #expect(
            errorMessages { _ = try AppModel(contentsOf: [path]).schema() } == [
                "\(path):3:5: Trip: CloudKit integration does not support unique constraints; remove the constraint on name and merge duplicates in the app",
                "\(path):4:9: Trip: name: CloudKit integration requires that all attributes be optional, or have a default value set; mark it optional or give it a default",
                "\(path):5:9: Trip: handle: CloudKit integration does not support Object ID attributes; give it a stored type or mark it transient",
                "\(path):6:9: Trip: blob: CloudKit integration does not support Undefined attributes; give it a stored type or mark it transient",
                "\(path):7:9: Trip: stops: CloudKit integration requires that all relationships be optional; mark it optional",
                "\(path):7:9: Trip: stops: CloudKit integration requires that all relationships have an inverse; add one on Stop",
                "\(path):7:9: Trip: stops: CloudKit integration does not support ordered relationships; untick Ordered and sort by an attribute",
                "\(path):7:9: Trip:stops - Deny: CloudKit integration does not support this delete rule; use Nullify or Cascade",
            ])
    }

    @Test func readsSwiftDataClassesAsTheirModel() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(
            "Models/Note.swift",
            """
            import SwiftData

            struct Style: Codable { var bold = false }

            @Model final class Note {
                var title: String = ""
                var count = 0
                var ratio = 0.5
                @Attribute(.externalStorage) var photo: Data?
                @Attribute(.allowsCloudEncryption) var secret: String?
                @Transient var scratch: String = ""
                var style: Style = Style()
                var tags: [String] = []
                var summary: String { title }
                static var shared = 1
                @Relationship(deleteRule: .cascade) var pages: [Page]?

                init() {}
            }

            @Model final class Page {
                var number: Int = 0
                var note: Note?
            }
            """)
        let schema = try AppModel(contentsOf: [folder.path("Models")]).schema()
        let note = try #require(schema.recordType(named: "CD_Note"))
        #expect(
            note.userFields.map { "\($0.name) \($0.typeDeclaration)" } == [
                "CD_count INT64", "CD_entityName STRING", "CD_moveReceipt BYTES", "CD_moveReceipt_ckAsset ASSET",
                "CD_photo BYTES", "CD_photo_ckAsset ASSET", "CD_ratio DOUBLE", "CD_secret ENCRYPTED STRING",
                "CD_secret_ckAsset ASSET", "CD_style BYTES", "CD_style_ckAsset ASSET", "CD_tags BYTES",
                "CD_tags_ckAsset ASSET", "CD_title STRING", "CD_title_ckAsset ASSET",
            ])
        #expect(schema.recordType(named: "CD_Page")?.field(named: "CD_note")?.typeDeclaration == "STRING")
        #expect(try AppModel(contentsOf: [path]).schema() == schema)
    }

    @Test func refusesSwiftDataClassesThatBreakCloudKitsRules() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(
            "Trip.swift",
            """
            import SwiftData

            @Model final class Trip {
                @Attribute(.unique) var name: String = ""
                var start: Date
                @Relationship(deleteRule: .deny, inverse: \\Stop.trip) var stops: [Stop] = []
            }

            @Model final class Stop {
                var trip: Trip?
            }
            """)
        #expect(
            errorMessages { _ = try AppModel(contentsOf: [path]).schema() } == [
                "\(path):3:1: Trip: CloudKit integration does not support unique constraints; remove the constraint on name and merge duplicates in the app",
                "\(path):5:5: Trip: start: CloudKit integration requires that all attributes be optional, or have a default value set; mark it optional or give it a default",
                "\(path):6:5: Trip: stops: CloudKit integration requires that all relationships be optional; mark it optional",
                "\(path):6:5: Trip:stops - Deny: CloudKit integration does not support this delete rule; use Nullify or Cascade",
            ])
    }

    @Test func saysWhatIsWrongWithAPathThatHoldsNoModel() throws {
        let folder = try TemporaryFolder()
        try folder.write("Empty/readme.txt", "nothing")
        let notXML = try folder.write("Bad.xcdatamodel/contents", "<model><entity name=\"A\"></model>")
        #expect(
            errorMessages { _ = try AppModel(contentsOf: [folder.path("Empty")]) } == [
                "\(folder.path("Empty")): this folder holds no model: no contents file and no Swift sources; give a .xcdatamodeld, a .xcdatamodel or SwiftData sources"
            ])
        #expect(
            errorMessages { _ = try AppModel(contentsOf: [folder.path("Missing.xcdatamodeld")]) } == [
                "\(folder.path("Missing.xcdatamodeld")): no such model; give a .xcdatamodeld, a .xcdatamodel, its contents file, or Swift sources"
            ])
        #expect(
            errorMessages { _ = try AppModel(contentsOf: [notXML]) } == [
                "\(notXML):1:33: the model file is not well-formed XML (libxml2: Opening and ending tag mismatch: entity line 1 and model); fix it at this place"
            ])
    }

    static func model(_ entities: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" usedWithCloudKit="YES">
        \(entities)
        </model>
        """
    }
}
