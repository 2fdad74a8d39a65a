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
              cloudseed export --model TripPlanner.xcdatamodeld --out seed.json

            With --model, the records of a Core Data or SwiftData app's objects are written as the \
            objects: one JSON document of rows by entity, with the model's names, which \
            import --model reads back.
            """
    )

    @OptionGroup var storeOptions: StoreOptions

    @OptionGroup var model: ModelOptions

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

    func validate() throws {
        if !model.paths.isEmpty, type != nil || assetsOut != nil || format != .cloudkitJSON {
            throw ValidationError(
                "--model writes the app's objects as one JSON document; drop --type, --format and --assets-out")
        }
    }

    func run() throws {
        try reportingErrors(writes: false) {
            var output: BufferedOutput?
            defer { output?.flush() }
            let store = try storeOptions.openStore(mustExist: true)
            if !model.paths.isEmpty {
                return try store.exportObjects(
                    of: AppModel(contentsOf: model.paths), configuration: model.configuration,
                    in: storeOptions.scope(appModel: true)
                ) {
                    let opened = BufferedOutput(try OutputSink(path: out))
                    output = opened
                    return opened.write
                }
            }
            try store.export(
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
