import ArgumentParser
import CloudSeed

struct SeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Put a store into the state a fixtures manifest (JSON or YAML) describes, in one transaction.",
        discussion: """
            Running a manifest twice leaves the store as after the first run.

            Examples:
              cloudseed seed SampleData/gallery.json
              cloudseed seed fixtures.yaml --reset
              cloudseed seed fixtures.yaml --prune --dry-run
            """
    )

    @Argument(help: "The manifest (.json, .yaml or .yml).")
    var manifest: String

    @OptionGroup var storeLocation: StoreLocationOption

    @Flag(help: "Empty the manifest's zone first.")
    var reset = false

    @Flag(help: "Delete records of the manifest's record types that it no longer produces.")
    var prune = false

    @Flag(name: .customLong("dry-run"), help: "Show what would change; write nothing.")
    var dryRun = false

    @Flag(help: "Print the summary as JSON.")
    var json = false

    func run() throws {
        try reportingErrors {
            let manifest = try FixtureManifest(path: manifest)
            let summary = try ContainerStore.removingIfNew(storeLocation.location) { store in
                try Seeder(store: store, reset: reset, prune: prune, dryRun: dryRun).run(manifest)
            }
            print(json ? summary.wordedJSON { $0.flag } : summary.wordedText { $0.flag }, terminator: "")
        }
    }
}
