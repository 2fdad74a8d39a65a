import ArgumentParser
import CloudSeed

/// `--model PATH` and `--configuration NAME`: the app model a command works with.
struct ModelOptions: ParsableArguments {
    @Option(
        name: .customLong("model"),
        help: ArgumentHelp(
            "The app's Core Data model (.xcdatamodeld) or SwiftData sources (files or folders); repeat for several.",
            valueName: "path"))
    var paths: [String] = []

    @Option(help: ArgumentHelp("Only this configuration of the model's entities.", valueName: "name"))
    var configuration: String?

    init() {}

    init(paths: [String], configuration: String?) {
        self.paths = paths
        self.configuration = configuration
    }

    /// The schema the model syncs to `database`.
    func schema(database: DatabaseScope) throws -> SchemaDefinition {
        try AppModel(contentsOf: paths).schema(configuration: configuration, database: database)
    }
}
