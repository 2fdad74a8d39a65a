import ArgumentParser
import CloudSeed

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show the store's containers, environments, databases, zones, record types and counts.",
        discussion: "Example:\n  cloudseed inspect --json"
    )

    @OptionGroup var storeLocation: StoreLocationOption

    @Flag(help: "Print as JSON.")
    var json = false

    func run() throws {
        try reportingErrors(writes: false) {
            print(try storeLocation.open(mustExist: true).inventory(asJSON: json), terminator: "")
        }
    }
}
