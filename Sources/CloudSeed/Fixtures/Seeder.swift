import Foundation

/// Puts a store into the state a fixtures manifest describes, in one transaction.
///
/// The command line's `cloudseed seed` and tests use the same code:
///
/// ```swift
/// let store = try ContainerStore(folder.path("store.sqlite"))
/// let summary = try Seeder(store: store).run(try FixtureManifest(path: "SampleData/gallery.json"))
/// ```
public struct Seeder: Sendable {
    /// The store written, held to itself for the length of a run.
    package var containerStore: ContainerStore
    private var store: any StoreBackend { containerStore.backend }
    /// Empty the manifest's zone first.
    public var reset = false
    /// Delete records of the manifest's record types that the manifest no longer produces.
    public var prune = false
    /// Work out what would change, and write nothing.
    public var dryRun = false
    /// The time stamped on created and modified records, in milliseconds since 1970.
    public var now = Int64(Date().timeIntervalSince1970 * 1000)

    /// A seeder of `store`: `reset` empties the manifest's zone first, `prune` deletes what the
    /// manifest no longer produces, `dryRun` works out the changes and writes nothing.
    public init(store: ContainerStore, reset: Bool = false, prune: Bool = false, dryRun: Bool = false) {
        self.containerStore = store
        self.reset = reset
        self.prune = prune
        self.dryRun = dryRun
    }

    /// Seeds the store. A manifest's schema file replaces the record types it defines (with their
    /// indexes and grants); the environment's other types stay as they are.
    public func run(_ manifest: FixtureManifest) throws -> ImportSummary {
        try containerStore.exclusively { try seed(manifest) }
    }

    private func seed(_ manifest: FixtureManifest) throws -> ImportSummary {
        var importer = Importer(
            store: containerStore, scope: manifest.scope, options: try Self.options(for: manifest),
            userRecordName: manifest.user, now: now)
        importer.reset = reset
        importer.prune = prune
        if let schema = manifest.schema {
            let file = try SchemaOperations(store: containerStore, container: manifest.container).definition(
                from: schema)
            var merged = try store.schemaDefinition(of: manifest.scope.schemaScope)
            merged.roles += file.roles
            merged.recordTypes += file.recordTypes
            importer.schemaDefinition = merged
        }
        let sources = try manifest.sources.map {
            try SourceFile(path: $0.file, format: $0.format, recordType: $0.recordType)
        }
        return try importer.run(sources, dryRun: dryRun)
    }

    /// The mapping options a manifest's sources ask for, each qualified by the source's record type.
    static func options(for manifest: FixtureManifest) throws -> MappingOptions {
        var options = MappingOptions()
        if let model = manifest.model {
            try options.readRows(asObjectsOf: AppModel(contentsOf: [model]), configuration: manifest.modelConfiguration)
        }
        for source in manifest.sources {
            let type = source.recordType
            if let template = source.recordName {
                options.nameTemplates.append(NameTemplate(recordType: type, template: template))
            }
            for (name, field) in source.fields {
                if let type = field.type {
                    options.fieldTypes.append(FieldTypeOverride(recordType: source.recordType, field: name, type: type))
                }
                if field.asset {
                    options.fieldTypes.append(FieldTypeOverride(recordType: type, field: name, type: .asset))
                }
                if let target = field.reference {
                    options.references.append(
                        ReferenceDeclaration(recordType: type, field: name, target: target, action: field.action))
                }
                if let columns = field.location {
                    options.locations.append(LocationDeclaration(recordType: type, field: name, columns: columns))
                }
                if let format = field.dateFormat {
                    var pin = try DateFormatPin(parsing: format)
                    (pin.recordType, pin.field) = (type, name)
                    options.dateFormats.append(pin)
                }
            }
        }
        return options
    }
}
