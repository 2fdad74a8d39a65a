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

    @Option(help: "jsonl (one record per line) or cloudkit-json ({\"records\": [...]}).")
    var format: ExportFormat = .cloudkitJSON

    @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "path"))
    var out: String?

    func run() throws {
        try reportingErrors {
            let store = try storeOptions.openStore()
            let sink = try OutputSink(path: out)
            var writer = RecordWriter(format: format, write: sink.write)
            writer.begin()
            try store.forEachRecord(in: storeOptions.scope, recordType: type) { writer.append($0) }
            writer.end()
        }
    }
}
