import ArgumentParser
import CloudSeed

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export records as CloudKit Web Services record dictionaries.",
        discussion: """
            Examples:
              cloudseed export --format jsonl
              cloudseed export --type ToDoItem --out todos.json
            """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: ArgumentHelp("Export only this record type.", valueName: "type"))
    var type: String?

    @Option(
        help: "cloudkit-json ({\"records\": [...]}), jsonl (one record per line), plist, or csv (one file per type).")
    var format: ExportFormat = .cloudkitJSON

    @Option(
        help: ArgumentHelp("Write to this file (for csv: this folder) instead of standard output.", valueName: "path"))
    var out: String?

    @Option(
        name: .customLong("assets-out"),
        help: ArgumentHelp("Also write each asset's file into this folder, named by its checksum.", valueName: "dir"))
    var assetsOut: String?

    func run() throws {
        try reportingErrors(writes: false) {
            var output: BufferedOutput?
            defer { output?.flush() }
            try storeOptions.openStore(mustExist: true).export(
                storeOptions.scope, recordType: type, as: format, csvFolder: format == .csv ? out : nil,
                assetsFolder: assetsOut
            ) {
                let opened = BufferedOutput(try OutputSink(path: format == .csv ? nil : out))
                output = opened
                return opened.write
            }
        }
    }
}
