import ArgumentParser
import CloudSeed

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import property lists, JSON and CSV files as records, in one transaction.",
        discussion: """
            Field types are inferred over all values of the run; record types and fields the store
            lacks are created just in time in development and refused in production.

            Examples:
              cloudseed import SampleData/ToDoItems/ToDoItems.plist
              cloudseed import artworks.csv --type Artwork --field price:DOUBLE
              cloudseed import gallery.plist --name-template 'Artist={firstName} {lastName}' --field Artwork.image:ASSET
            """
    )

    @Argument(help: ArgumentHelp("The files to import; - reads standard input.", valueName: "file"))
    var files: [String]

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: ArgumentHelp("The record type of single-type files (default: the file name, singular).", valueName: "type"))
    var type: String?

    @Option(name: .customLong("field"), help: ArgumentHelp("A field's type, as price:DOUBLE or Artwork.image:ASSET.", valueName: "[type.]name:TYPE"))
    var fields: [String] = []

    @Option(name: .customLong("name-template"), help: ArgumentHelp("How records are named, as \"{firstName} {lastName}\" or Artist=\"{name}\".", valueName: "[type=]template"))
    var nameTemplates: [String] = []

    @Option(help: "Read every file as this format: csv, tsv, json, jsonl or plist.")
    var format: SourceFormat?

    @Option(help: ArgumentHelp("The CSV delimiter (default: sniffed among , ; tab |).", valueName: "char"))
    var delimiter: String?

    @Flag(name: .customLong("no-header"), help: "The CSV files have no header row; name the columns with --columns.")
    var noHeader = false

    @Option(help: ArgumentHelp("Column names for CSV files without a header row, comma-separated.", valueName: "a,b,c"))
    var columns: String?

    @Flag(name: .customLong("nested-as-json"), help: "Keep arrays of dictionaries as JSON text instead of child records.")
    var nestedAsJSON = false

    @Flag(help: "Print the summary as JSON.")
    var json = false

    func validate() throws {
        if let type, !IdentifierMapping.isValid(type) {
            throw ValidationError("--type '\(type)' is not a record type name: start with a letter, then letters, digits and '_'")
        }
        if let delimiter, delimiter != "\\t", delimiter.utf8.count != 1 {
            throw ValidationError("--delimiter takes one character, or \\t for tab")
        }
        if noHeader != (columns != nil) {
            throw ValidationError("--no-header and --columns go together: name the columns of a file without a header row")
        }
    }

    func run() throws {
        try reportingErrors {
            let csv = CSVOptions(
                delimiter: delimiter.map { $0 == "\\t" ? UInt8(9) : $0.utf8.first! },
                columns: columns.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) })
            let options = MappingOptions(
                recordType: type, nameTemplates: try nameTemplates.map(NameTemplate.init(parsing:)),
                fieldTypes: try fields.map(FieldTypeOverride.init(parsing:)), nestedAsJSON: nestedAsJSON, csv: csv)
            let sources = try files.map { try SourceFile(path: $0, format: format) }
            let store = try storeOptions.openStore()
            let summary = try Importer(store: store, scope: storeOptions.scope, options: options, userRecordName: storeOptions.user)
                .run(sources)
            print(json ? summary.json : summary.text, terminator: "")
        }
    }
}
