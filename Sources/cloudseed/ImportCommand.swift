import ArgumentParser
import CloudSeed
import Foundation

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import property lists, JSON and CSV files as records, in one transaction.",
        discussion: """
            Field types are inferred over all values of the run; record types and fields the store \
            lacks are created just in time in development and refused in production.

            Examples:
              cloudseed import SampleData/ToDoItems/ToDoItems.plist
              cloudseed import artworks.csv --type Artwork --field price:DOUBLE
              cloudseed import books.csv --date-format 'published=dd/MM/yyyy' --timezone Europe/Paris
              cloudseed import gallery.plist --name-template 'Artist={firstName} {lastName}' --field Artwork.image:ASSET
              cloudseed import trips.json people.csv --model TripPlanner.xcdatamodeld
            """
    )

    @Argument(help: ArgumentHelp("The files to import; - reads standard input.", valueName: "file"))
    var files: [String]

    @OptionGroup var storeOptions: StoreOptions

    @OptionGroup var model: ModelOptions

    @Option(
        name: .customLong("attribute"),
        help: ArgumentHelp(
            "With --model: the attribute or relationship a key is, where its name does not say (Trip.when=startDate).",
            valueName: "[Entity.]key=attribute"))
    var attributes: [String] = []

    @Option(
        help: ArgumentHelp(
            "The record type of single-type files (default: the file name, singular).", valueName: "type"))
    var type: String?

    @Option(
        name: .customLong("field"),
        help: ArgumentHelp("A field's type, as price:DOUBLE or Artwork.image:ASSET.", valueName: "[type.]name:TYPE"))
    var fields: [String] = []

    @Option(
        name: .customLong("date-format"),
        help: ArgumentHelp(
            "How dates written in numbers are read: MM/dd/yyyy or dd/MM/yyyy, for every field or as published=MM/dd/yyyy.",
            valueName: "[[type.]field=]format"))
    var dateFormats: [String] = []

    @Option(
        help: ArgumentHelp(
            "The time zone of dates and times written without one, as Europe/Paris or +02:00 (default: UTC).",
            valueName: "zone"))
    var timezone: String?

    @Option(
        name: .customLong("name-template"),
        help: ArgumentHelp(
            "How records are named, as \"{firstName} {lastName}\" or Artist=\"{name}\".", valueName: "[type=]template"))
    var nameTemplates: [String] = []

    @Option(help: "Read every file as this format: csv, tsv, json, jsonl or plist.")
    var format: SourceFormat?

    @Option(help: ArgumentHelp("The CSV delimiter (default: sniffed among , ; tab |).", valueName: "char"))
    var delimiter: String?

    @Flag(
        name: .customLong("header"), inversion: .prefixedNo,
        help:
            "Whether the CSV files' first row is a header (default: told from the row; without one, columns are column1, column2, …)."
    )
    var header: Bool?

    @Option(help: ArgumentHelp("Column names for CSV files without a header row, comma-separated.", valueName: "a,b,c"))
    var columns: String?

    @Flag(
        name: .customLong("nested-as-json"), help: "Keep arrays of dictionaries as JSON text instead of child records.")
    var nestedAsJSON = false

    @Option(
        name: .customLong("reference"),
        help: ArgumentHelp(
            "A reference field, as artist or Artwork.artist:Artist:DELETE_SELF.",
            valueName: "[type.]field[:Target][:DELETE_SELF]"))
    var references: [String] = []

    @Option(
        name: .customLong("asset"),
        help: ArgumentHelp("An asset field: its values are paths to files.", valueName: "[type.]field"))
    var assets: [String] = []

    @Option(
        name: .customLong("location"),
        help: ArgumentHelp("A LOCATION field made of columns.", valueName: "[type.]field=LATCOL,LONCOL|COL"))
    var locations: [String] = []

    @Flag(
        name: .customLong("allow-dangling"),
        help:
            "Keep references to records that do not exist (CloudKit allows NONE references to them), and assets whose bytes the store lacks, as metadata only; leave out asset files that do not exist."
    )
    var allowDangling = false

    @Option(
        name: .customLong("assets-dir"),
        help: ArgumentHelp(
            "The folder asset paths are relative to (default: each source file's folder).", valueName: "dir"))
    var assetsDir: String?

    @Flag(name: .customLong("allow-outside-assets"), help: "Let asset paths leave their folder (absolute paths, '..').")
    var allowOutsideAssets = false

    @Flag(name: .customLong("uuid"), help: "Name records with random UUIDs instead of deterministic names.")
    var uuid = false

    @Flag(name: .customLong("dry-run"), help: "Show the plan and what would change; write nothing.")
    var dryRun = false

    @Option(help: "How existing records are written: create, update-if-unchanged, changed-keys or all-keys.")
    var mode: SaveMode = .changedKeys

    @Flag(help: "Save what can be saved and list the conflicts, instead of writing nothing.")
    var partial = false

    @Flag(
        name: .customLong("skip-bad-rows"), help: "Save the good rows; report each bad one (with --rejects, to a file)."
    )
    var skipBadRows = false

    @Option(help: ArgumentHelp("Write refused rows and records here, one JSON object per line.", valueName: "file"))
    var rejects: String?

    @Flag(help: "Print the summary as JSON.")
    var json = false

    @Flag(help: "No progress bar.")
    var quiet = false

    func validate() throws {
        if let type, !IdentifierMapping.isValid(type) {
            throw ValidationError(
                "--type '\(type)' is not a record type name: start with a letter, then letters, digits and '_'")
        }
        if let delimiter, delimiter != "\\t", delimiter.utf8.count != 1 {
            throw ValidationError("--delimiter takes one character, or \\t for tab")
        }
        if !attributes.isEmpty, model.paths.isEmpty {
            throw ValidationError("--attribute pins a key of an app's objects; give --model too")
        }
        if header == true, columns != nil {
            throw ValidationError("--columns names the columns of files without a header row; drop --header")
        }
    }

    func run() throws {
        try reportingErrors {
            let csv = CSVOptions(
                delimiter: delimiter.map { $0 == "\\t" ? UInt8(9) : $0.utf8.first! },
                columns: columns.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) },
                hasHeader: columns != nil ? false : header)
            var options = MappingOptions(
                recordType: type, nameTemplates: try nameTemplates.map(NameTemplate.init(parsing:)),
                fieldTypes: try fields.map(FieldTypeOverride.init(parsing:))
                    + assets.map { try FieldTypeOverride(parsing: "\($0):ASSET") },
                nestedAsJSON: nestedAsJSON)
            options.csv = csv
            options.references = try references.map(ReferenceDeclaration.init(parsing:))
            options.locations = try locations.map(LocationDeclaration.init(parsing:))
            options.dateFormats = try dateFormats.map(DateFormatPin.init(parsing:))
            options.timeZone = try timezone.map(TimeZoneChoice.init(parsing:))
            options.allowDangling = allowDangling
            options.assetsFolder = assetsDir
            options.allowOutsideAssets = allowOutsideAssets
            options.randomNames = uuid
            options.skipBadRows = skipBadRows
            if !model.paths.isEmpty {
                try options.readRows(asObjectsOf: AppModel(contentsOf: model.paths), configuration: model.configuration)
                options.attributeMatches = try attributes.map(AttributeMatch.init(parsing:))
            }
            let sources = try files.map { try SourceFile(path: $0, format: format) }
            let progress = !quiet && TerminalProgress.isAvailable ? TerminalProgress() : nil
            defer { progress?.finish() }
            if let progress {
                options.progress = ProgressMeter(total: ProgressMeter.total(of: sources), report: progress.update)
            }
            try ContainerStore.removingIfNew(storeOptions.storeLocation.location) { store in
                var importer = Importer(
                    store: store, scope: storeOptions.scope(appModel: !model.paths.isEmpty), options: options,
                    userRecordName: storeOptions.user)
                importer.mode = mode
                importer.partial = partial
                let rejectsFile = try rejects.map { try OutputSink(path: $0) }
                let summary = try importer.run(sources, dryRun: dryRun) { row in
                    guard let rejectsFile else {
                        for error in row.errors {
                            FileHandle.standardError.write(
                                Data("refused: \(error.described(wordingOptions: { $0.flag }))\n".utf8))
                        }
                        return
                    }
                    for line in row.jsonLines(wordingOptions: { $0.flag }) { rejectsFile.write(line + "\n") }
                }
                progress?.finish()
                print(json ? summary.wordedJSON { $0.flag } : summary.wordedText { $0.flag }, terminator: "")
            }
        }
    }
}
