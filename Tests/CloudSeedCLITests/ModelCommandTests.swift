import CloudSeedTestSupport
import Foundation
import Testing

/// The sample app's loop as a user runs it: model → schema → seed files → push → pull.
@Suite struct ModelCommandTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    func run(_ arguments: [String]) throws -> CommandResult {
        try CommandRunner.run(arguments, in: folder.url)
    }

    static let model = Repository.sample("TripPlanner/TripPlanner.xcdatamodeld")
    static let seed = ["destinations.csv", "people.csv", "trips.json"].map { Repository.sample("TripPlanner/" + $0) }
    static let zone = ["--database", "private", "--zone", "com.apple.coredata.cloudkit.zone"]

    /// The zone's records, one per line in name order, with the change tags, times and users a
    /// server sets masked.
    func records(_ store: String) throws -> String {
        let result = try run(["export", "--store", store, "--format", "jsonl"] + Self.zone)
        #expect(result.status == 0)
        return result.standardOutput.split(separator: "\n").map {
            $0.replacing(/"timestamp":-?[0-9]+/, with: "\"timestamp\":0")
                .replacing(/"recordChangeTag":"[^"]*"/, with: "\"recordChangeTag\":\"\"")
                .replacing(/"(userRecordName|ownerRecordName)":"[^"]*"/) { #""\#($0.output.1)":"""# }
        }.sorted().joined(separator: "\n")
    }

    @Test func theSampleAppsModelPrintsItsCheckedInSchema() throws {
        let result = try run(["schema", "from-model", Self.model])
        #expect(result.status == 0)
        #expect(
            try result.standardOutput
                == String(contentsOfFile: Repository.sample("TripPlanner/schema.ckdb"), encoding: .utf8))
        let imported = try run(["schema", "import", "--model", Repository.sample("TripPlanner/Models")])
        #expect(imported.status == 0)
        #expect(
            imported.standardOutput.hasPrefix("Imported \(Repository.sample("TripPlanner/Models")) into development:\n")
        )
        let exported = try run(["schema", "export"])
        #expect(
            try exported.standardOutput
                == String(contentsOfFile: Repository.sample("TripPlanner/schema.ckdb"), encoding: .utf8))
    }

    @Test func aSeededAppIsPushedToServeAndPulledBackTheSame() throws {
        let imported = try run(["import"] + Self.seed + ["--model", Self.model, "--store", "local.sqlite", "--quiet"])
        #expect(imported.status == 0)
        let inspected = try run(["inspect", "--store", "local.sqlite", "--model", Self.model]).standardOutput
        for line in [
            "      CD_destination   STRING → CD_Destination (Trip.destination)\n",
            "      CD_trip          STRING → CD_Trip (Item.trip)\n",
            "      CD_recordNames   STRING → the two objects linked (Person.trips ↔ Trip.companions)\n",
            "  private database, zone com.apple.coredata.cloudkit.zone (owner __defaultOwner__):\n    CDMR: 4 records\n",
        ] {
            #expect(inspected.contains(line), "\(line)")
        }
        let server = try ServeProcess(["--store", "served.sqlite", "--api-token", "app-token"], in: folder.url)
        let remote = [
            "--endpoint", server.baseURL, "--api-token", "app-token", "--web-auth-token", "user-token", "--database",
            "private",
        ]
        let push = try run(["push", "--store", "local.sqlite"] + remote)
        #expect(
            push.standardOutput
                == "Pushed 17 records (0 assets, 1 zones created) in 3 requests, 0 tried again; 0 unchanged since the last push; 0 refused\n"
        )
        let pull = try run(["pull", "--store", "pulled.sqlite"] + remote)
        #expect(pull.standardOutput.hasPrefix("Pulled 17 records (0 assets) and 0 deletions from 1 zones"))
        let local = try records("local.sqlite")
        #expect(local.split(separator: "\n").count == 17)
        #expect(try records("pulled.sqlite") == local)
        // The pulled container, exported as the app's objects, seeds a new store with the same records.
        let objects = try run(["export", "--store", "pulled.sqlite", "--model", Self.model, "--out", "objects.json"])
        #expect(objects.status == 0)
        let reseeded = try run(["import", "objects.json", "--model", Self.model, "--store", "reseeded.sqlite"])
        #expect(reseeded.status == 0)
        #expect(try records("reseeded.sqlite") == local)
        withExtendedLifetime(server) {}
    }
}
