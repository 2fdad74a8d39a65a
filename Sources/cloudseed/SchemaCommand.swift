import ArgumentParser
import CloudSeed

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Work with schemas in the CloudKit Schema Language (.ckdb files).",
        subcommands: [Export.self, Import.self, FromModel.self, Validate.self, Diff.self, Promote.self]
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
            try reportingErrors(writes: false) {
                let store = try storeOptions.openStore(mustExist: true)
                try OutputSink(path: out).write(
                    CKSLPrinter.print(
                        try store.schema(of: storeOptions.container, environment: storeOptions.environment)))
            }
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Make a .ckdb file, or an app's model, the development schema: types, fields, indexes and grants.",
            discussion:
                "Refused whole when it would remove or retype what production has.\n\nExamples:\n  cloudseed schema import schema.ckdb\n  cloudseed schema import --model Trips.xcdatamodeld"
        )

        @Argument(help: "The .ckdb file.")
        var file: String?

        @OptionGroup var model: ModelOptions

        @OptionGroup var storeOptions: StoreOptions

        func validate() throws {
            guard (file == nil) != model.paths.isEmpty else {
                throw ValidationError("Give either a .ckdb file or --model, not both or neither.")
            }
        }

        func run() throws {
            try reportingErrors {
                let operations = SchemaOperations(
                    store: try storeOptions.openStore(), container: storeOptions.container)
                let source = file ?? model.paths.joined(separator: " ")
                let definition =
                    try file.map(operations.definition(from:))
                    ?? model.schema(database: storeOptions.database ?? .private)
                let diff = try operations.importIntoDevelopment(definition)
                print(
                    diff.isEmpty
                        ? "The development schema already matches \(source)."
                        : "Imported \(source) into development:\n\(diff)")
            }
        }
    }

    struct FromModel: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "from-model",
            abstract: "Print the schema a Core Data or SwiftData model syncs to CloudKit, as a .ckdb file.",
            discussion:
                "The schema initializeCloudKitSchema makes in development: CD_ types, fields, _ckAsset twins, CDMR for many-to-many and every index. A model that breaks CloudKit's rules is refused, each violation named.\n\nExamples:\n  cloudseed schema from-model Trips.xcdatamodeld\n  cloudseed schema from-model Sources/Models --database public"
        )

        @Argument(
            help: ArgumentHelp(
                "A .xcdatamodeld, a .xcdatamodel or its contents file; or Swift files and folders with @Model classes.",
                valueName: "path"))
        var paths: [String]

        @Option(help: ArgumentHelp("Only this configuration's entities.", valueName: "name"))
        var configuration: String?

        @Option(help: "The database the app syncs with: private, shared or public.")
        var database: DatabaseScope = .private

        @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "path"))
        var out: String?

        func run() throws {
            try reportingErrors(writes: false) {
                let schema = try ModelOptions(paths: paths, configuration: configuration).schema(database: database)
                try OutputSink(path: out).write(schema.cksl)
            }
        }
    }

    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a .ckdb file: syntax, identifiers, types and options.",
            discussion: "Example:\n  cloudseed schema validate schema.ckdb"
        )

        @Argument(help: "The .ckdb file.")
        var file: String

        func run() throws {
            try reportingErrors(writes: false) {
                let definition = try SchemaOperations(
                    store: try ContainerStore.inMemory(), container: StoreScope.defaultContainer
                ).definition(from: file)
                let diagnostics = definition.validate()
                for diagnostic in diagnostics { print("\(file): \(diagnostic)") }
                if diagnostics.contains(where: { $0.severity == .error }) { throw ExitCode(1) }
                print(
                    "\(file) is a valid schema: \(definition.recordTypes.count) record types, \(definition.roles.count) roles."
                )
            }
        }
    }

    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the changes from one schema to another, and whether production could take them.",
            discussion:
                "Each side is a .ckdb file, or development or production for the store's.\n\nExamples:\n  cloudseed schema diff old.ckdb new.ckdb\n  cloudseed schema diff production development"
        )

        @Argument(help: "The schema before.")
        var from: String

        @Argument(help: "The schema after.")
        var to: String

        @OptionGroup var storeOptions: StoreOptions

        func run() throws {
            try reportingErrors(writes: false) {
                let operations = SchemaOperations(
                    store: try storeOptions.openStore(), container: storeOptions.container)
                let diff = SchemaDiff(
                    from: try operations.definition(from: from), to: try operations.definition(from: to))
                if diff.isEmpty {
                    print("No changes.")
                } else {
                    print(diff)
                    print(
                        diff.isAdditive
                            ? "Additive: production can take these changes."
                            : "Not additive: production would refuse these changes.")
                }
            }
        }
    }

    struct Promote: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy the development schema to production; additive changes only.",
            discussion:
                "A removal or type change is refused whole, with the list of offending changes.\n\nExample:\n  cloudseed schema promote"
        )

        @OptionGroup var storeOptions: StoreOptions

        func run() throws {
            try reportingErrors {
                let diff = try SchemaOperations(store: try storeOptions.openStore(), container: storeOptions.container)
                    .promote()
                print(diff.isEmpty ? "Production already matches development." : "Promoted to production:\n\(diff)")
            }
        }
    }
}
