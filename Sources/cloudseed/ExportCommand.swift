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
            let store = try storeOptions.openStore(mustExist: true)
            if let type { try store.checkRecordType(type, in: storeOptions.scope.schemaScope) }
            let assets = try assetsOut.map { try AssetExporter(store: store, folder: $0) }
            if format == .csv {
                let standardOutput = BufferedOutput(try OutputSink(path: nil))
                defer { standardOutput.flush() }
                let exporter = try CSVExporter(
                    folder: out, schema: try store.schema(of: storeOptions.scope.schemaScope),
                    standardOutput: standardOutput.write)
                if assets == nil {
                    try store.forEachRecordCSVLine(
                        in: storeOptions.scope, recordType: type, columns: { try exporter.columns(of: $0) },
                        line: { try exporter.append(line: $1, recordType: $0) }, record: exporter.append)
                } else {
                    try store.forEachRecord(in: storeOptions.scope, recordType: type) { record in
                        try assets?.write(assetsOf: record)
                        try exporter.append(record)
                    }
                }
                try exporter.finish()
                return
            }
            let output = BufferedOutput(try OutputSink(path: out))
            defer { output.flush() }
            if format == .jsonl, assets == nil {
                try store.forEachRecordJSONLine(in: storeOptions.scope, recordType: type, output.write)
                return
            }
            var writer = RecordWriter(format: format, write: output.write)
            writer.begin()
            try store.forEachRecord(in: storeOptions.scope, recordType: type) { record in
                try assets?.write(assetsOf: record)
                writer.append(record)
            }
            writer.end()
        }
    }
}
