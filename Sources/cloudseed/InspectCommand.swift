import ArgumentParser
import CloudSeed

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show the store's containers, environments, databases, zones, record types and counts.",
        discussion:
            "With --model, the fields that link a Core Data or SwiftData app's objects show what they link.\n\nExamples:\n  cloudseed inspect --json\n  cloudseed inspect --model TripPlanner.xcdatamodeld"
    )

    @OptionGroup var storeLocation: StoreLocationOption

    @Flag(help: "Print as JSON.")
    var json = false

    @OptionGroup var model: ModelOptions

    func run() throws {
        try reportingErrors(writes: false) {
            let appModel = model.paths.isEmpty ? nil : try AppModel(contentsOf: model.paths)
            print(
                try storeLocation.open(mustExist: true).inventory(
                    asJSON: json, model: appModel, configuration: model.configuration),
                terminator: "")
        }
    }
}
