import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// Real third-party files from `../shared/examples`, imported as a user would; skipped without them.
@Suite(.enabled(if: SharedExamples.isAvailable, "../shared/examples is not beside this checkout"))
struct SharedExamplesTests {
    struct Imported {
        var summary: ImportSummary
        var records: [CloudRecord]

        func count(_ type: String) -> Int { summary.counts.first { $0.recordType == type }?.created ?? 0 }
        func type(_ field: String, of recordType: String) -> FieldType? {
            summary.plan.recordType(recordType)?.fields[field]?.type
        }
        func records(_ type: String) -> [CloudRecord] { records.filter { $0.recordType == type } }
    }

    func importing(_ relativePath: String, options: MappingOptions = MappingOptions()) throws -> Imported {
        let folder = try TemporaryFolder()
        let store = try SQLiteContainerStore(path: folder.path("store.sqlite"))
        let summary = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), options: options, now: 0)
            .run([SourceFile(path: SharedExamples.path(relativePath))])
        var records: [CloudRecord] = []
        try store.forEachRecord(in: StoreScope(), recordType: nil) { records.append($0) }
        return Imported(summary: summary, records: records)
    }

    @Test(arguments: ["plist/CodaJ_TheElements_Elements.plist", "plist/CodaJ_TheElements_Elements.binary.plist"])
    func elements(path: String) throws {
        let result = try importing(path, options: MappingOptions(recordType: "Element"))
        #expect(result.count("Element") == 119)
        for field in ["atomicNumber", "group", "period", "horizPos", "vertPos"] {
            #expect(result.type(field, of: "Element") == .int64)
        }
        for field in ["symbol", "atomicWeight", "radioactive", "discoveryYear"] {
            #expect(result.type(field, of: "Element") == .string)
        }
        #expect(result.records.filter { $0.fields["radioactive"] == .string("True") }.count == 37)
    }

    @Test func binaryTwinsImportToTheSameRecords() throws {
        for name in [
            "CodaJ_TheElements_Elements", "Guadoo_BowTies_SampleData", "damienmauchamp_itunes-library-reader_sample",
        ] {
            let xml = try importing("plist/\(name).plist").records
            let binary = try importing("plist/\(name).binary.plist").records
            #expect(xml == binary, "\(name)")
        }
    }

    @Test func bowTies() throws {
        let result = try importing(
            "plist/Guadoo_BowTies_SampleData.plist", options: MappingOptions(recordType: "BowTie"))
        #expect(result.count("BowTie") == 7)
        #expect(result.type("rating", of: "BowTie") == .double)
        #expect(result.type("lastWorn", of: "BowTie") == .timestamp)
        #expect(result.type("timesWorn", of: "BowTie") == .int64)
        #expect(result.type("isFavorite", of: "BowTie") == .int64)
        #expect(result.type("tintColor_red", of: "BowTie") != nil)
        #expect(
            result.records.contains { $0.fields["lastWorn"] == .timestamp(Timestamp.parse("2015-07-26T13:16:44Z")!) })
    }

    @Test func xcodeProjectInOpenStepForm() throws {
        let result = try importing("plist/Guadoo_BowTies_project.pbxproj.openstep.plist")
        #expect(result.count("Object") == 53)
        #expect(result.records("Object").filter { $0.fields["isa"] == .string("PBXFileReference") }.count == 14)
        #expect(result.type("objectVersion", of: "Guadoo_BowTies_project") == .string)
    }

    @Test func leaguesWithTeamsAsChildRecords() throws {
        let result = try importing(
            "plist/alaaeljatib_leagues-swift_Data.plist", options: MappingOptions(recordType: "League"))
        #expect(result.count("League") == 63)
        #expect(result.count("Team") == 2292)
        #expect(result.type("league", of: "Team") == .reference)
        #expect(result.records("Team").filter { $0.fields["logo"] == nil }.count == 282)
        let leagues = Set(result.records("League").map(\.recordID.recordName))
        #expect(
            result.records("Team").allSatisfy { team in
                if case .reference(let parent)? = team.fields["league"] { return leagues.contains(parent.recordName) }
                return false
            })
    }

    @Test(arguments: [
        "plist/damienmauchamp_itunes-library-reader_sample.plist",
        "json/damienmauchamp_itunes-library-reader_sample.json",
    ])
    func iTunesLibrary(path: String) throws {
        let result = try importing(path)
        #expect(result.count("Track") == 1)
        #expect(result.count("Playlist") == 2)
        #expect(result.type("Persistent_ID", of: "Track") == .string)
        #expect(result.type("Size", of: "Track") == .int64)
        #expect(result.type("Date_Added", of: "Track") == .timestamp)
        if path.hasSuffix(".plist") { #expect(result.type("Smart_Info", of: "Playlist") == .bytes) }
    }

    @Test func deeplyNestedBinaryPropertyListDoesNotCrash() throws {
        let result = try importing("plist/dasdom_Phy_Phy.app_Data.binary.plist")
        #expect(result.records.count == 1)
    }

    @Test func twitchSampleNamedByItsIDs() throws {
        let result = try importing(
            "plist/jsertram63_COREDATA_TwitchCoreData_SampleData.plist", options: MappingOptions(recordType: "Streamer")
        )
        #expect(result.count("Streamer") == 7)
        #expect(result.summary.plan.recordType("Streamer")?.namingRule == .column("id"))
        #expect(result.type("rating", of: "Streamer") == .double)
        #expect(result.records.contains { $0.fields["rating"] == .double(4) })
    }

    @Test func birdsNamedByTheirKeysInSourceOrder() throws {
        let result = try importing(
            "plist/myakruns_NatureParkApp_SampleData.plist", options: MappingOptions(recordType: "Bird"))
        #expect(result.count("Bird") == 22)
        #expect(Set(result.records.map(\.recordID.recordName)) == Set((0...21).map { "Item \($0)" }))
        #expect(result.type("sighted", of: "Bird") == .int64)
    }

    @Test func jsonServerDatabase() throws {
        // Every collection numbers its records from 0: the ids are qualified by their types.
        let result = try importing("json/01-DC_confusion-coursera-reactjs_db.json")
        #expect(result.summary.counts.map(\.created).reduce(0, +) == 31)
        #expect(result.records("Dish").map(\.recordID.recordName).sorted() == ["Dish-0", "Dish-1", "Dish-2", "Dish-3"])
        #expect(result.summary.plan.recordType("Comment")?.namingRule == .qualifiedColumn("id"))
        #expect(result.summary.plan.recordType("Comment")?.pinningTemplate == "Comment-{id}")
        #expect(result.count("Comment") == 21)
        #expect(result.type("dishId", of: "Comment") == .reference)
        #expect(
            result.records("Comment").first { $0.recordID.recordName == "Comment-0" }?.fields["dishId"]
                == .reference(Reference(recordName: "Dish-0")))
        #expect(result.type("price", of: "Dish") == .double)
        #expect(result.type("date", of: "Comment") == .timestamp)
        #expect(result.type("featured", of: "Dish") == .int64)

        // Pinned by the templates the plan prints, the references still find their records.
        let templates = try ["Dish", "Comment", "Feedback", "Leader", "Promotion"].map {
            try NameTemplate(parsing: "\($0)=\($0)-{id}")
        }
        let pinned = try importing(
            "json/01-DC_confusion-coursera-reactjs_db.json", options: MappingOptions(nameTemplates: templates))
        #expect(pinned.records == result.records)
    }

    @Test func cars() throws {
        let result = try importing("json/vega_datasets-0.9.0_cars.json", options: MappingOptions(recordType: "Car"))
        #expect(result.count("Car") == 406)
        #expect(result.type("Miles_per_Gallon", of: "Car") == .double)
        #expect(result.type("Displacement", of: "Car") == .double)
        #expect(result.type("Horsepower", of: "Car") == .int64)
        #expect(result.type("Year", of: "Car") == .timestamp)
        #expect(result.records.filter { $0.fields["Miles_per_Gallon"] == nil }.count == 8)
    }

    @Test func djangoFixture() throws {
        let result = try importing("json/wagtail-8.0.1_test_testapp_fixtures_test.json")
        #expect(result.summary.counts.map(\.created).reduce(0, +) == 90)
        #expect(result.summary.plan.recordTypes.count == 31)
        #expect(result.count("Page") == 21)
        #expect(
            result.records("Advertwithcustomprimarykey").map(\.recordID.recordName) == [
                "Advertwithcustomprimarykey-advert/01"
            ])
    }

    @Test func prompts() throws {
        let result = try importing(
            "csv/f_awesome-chatgpt-prompts_prompts.csv", options: MappingOptions(recordType: "Prompt"))
        #expect(result.count("Prompt") == 376)
        #expect(result.type("for_devs", of: "Prompt") == .int64)
        #expect(result.records.filter { $0.fields["for_devs"] == .int64(1) }.count == 59)
        #expect(
            result.records.contains {
                if case .string(let text)? = $0.fields["prompt"] { return text.contains("\n") } else { return false }
            })
    }

    @Test func frenchPostcodesStayText() throws {
        let result = try importing(
            "csv/jaco60_zipcodes_laposte_hexasmal.csv", options: MappingOptions(recordType: "Commune"))
        #expect(result.count("Commune") == 39192)
        #expect(result.type("Code_postal", of: "Commune") == .string)
        #expect(result.type("Code_commune_INSEE", of: "Commune") == .string)
        #expect(result.type("Libelle_d_acheminement", of: "Commune") == .string)
        #expect(result.records.contains { $0.fields["Code_postal"] == .string("01400") })
    }

    @Test func airports() throws {
        let result = try importing(
            "csv/vega_datasets-0.9.0_airports.csv", options: MappingOptions(recordType: "Airport"))
        #expect(result.count("Airport") == 3376)
        #expect(result.type("location", of: "Airport") == .location)
        #expect(result.type("iata", of: "Airport") == .string)
    }
}
