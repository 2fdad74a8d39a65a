import ArgumentParser
import CloudSeed

struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete records by name, with the records that point to them with DELETE_SELF.",
        discussion: "Example:\n  cloudseed delete Artist 'Mei Chen'"
    )

    @Argument(help: "The record type.")
    var type: String

    @Argument(help: "The names of the records to delete.")
    var names: [String]

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        try reportingErrors {
            let deleted = try storeOptions.openStore(mustExist: true).deleteRecords(
                names, ofType: type, in: storeOptions.scope)
            print("Deleted \(deleted.count) record\(deleted.count == 1 ? "" : "s"):")
            for record in deleted { print("  \(record)") }
        }
    }
}
