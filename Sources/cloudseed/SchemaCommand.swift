import ArgumentParser
import CloudSeed

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Work with the store's schema in the CloudKit Schema Language.",
        subcommands: [Export.self]
    )

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the schema of a container environment as a .ckdb file.",
            discussion: "Example:\n  cloudseed schema export --out schema.ckdb"
        )

        @OptionGroup var storeOptions: StoreOptions

        @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "path"))
        var out: String?

        func run() throws {
            try reportingErrors {
                let store = try storeOptions.openStore()
                try OutputSink(path: out).write(SchemaPrinter.print(try store.schema(of: storeOptions.scope.schemaScope)))
            }
        }
    }
}
