import Foundation

/// What the `schema` commands do to a store: import a definition into development, promote
/// development to production (additive only), and read a definition from a file or the store.
package struct SchemaOperations {
    /// The store changed, held to itself for each operation.
    package var containerStore: ContainerStore
    package var container: String
    private var store: any StoreBackend { containerStore.backend }

    package init(store: ContainerStore, container: String) {
        self.containerStore = store
        self.container = container
    }

    private func scope(_ environment: ContainerEnvironment) -> SchemaScope {
        SchemaScope(container: container, environment: environment)
    }

    /// Reads a `.ckdb` file, or the store's schema when `source` is `development` or `production`
    /// and no file of that name exists.
    package func definition(from source: String) throws -> SchemaDefinition {
        if !FileManager.default.fileExists(atPath: source), let environment = ContainerEnvironment(rawValue: source) {
            return try containerStore.exclusively { try store.schemaDefinition(of: scope(environment)) }
        }
        guard let data = FileManager.default.contents(atPath: source) else {
            throw CloudSeedError(
                .fileAccess, "no such schema file; give a .ckdb file, development or production",
                at: SourcePosition(file: source))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CloudSeedError(.invalidValue, "the schema file is not UTF-8 text", at: SourcePosition(file: source))
        }
        return try CKSLParser.parse(text, file: source)
    }

    /// Makes `definition` the development schema. Refused whole, with the offending changes, when it
    /// would remove or retype a record type or field that production has.
    package func importIntoDevelopment(_ definition: SchemaDefinition) throws -> SchemaDiff {
        try containerStore.exclusively { try importIntoDevelopment(definition, with: store) }
    }

    private func importIntoDevelopment(_ definition: SchemaDefinition, with store: any StoreBackend) throws
        -> SchemaDiff
    {
        let production = try store.schemaDefinition(of: scope(.production))
        let lost = SchemaDiff(from: production, to: definition).changes.filter { change in
            switch change {
            case .recordTypeRemoved, .fieldRemoved, .fieldTypeChanged: true
            default: false
            }
        }
        guard lost.isEmpty else {
            throw CloudSeedError(
                collecting: lost.map {
                    CloudSeedError(
                        .productionSchemaRefused,
                        "the schema would lose what production has: \($0); keep it in the file (production schemas are additive only)"
                    )
                })
        }
        let diff = SchemaDiff(from: try store.schemaDefinition(of: scope(.development)), to: definition)
        try store.write { try $0.applySchema(definition, to: scope(.development)) }
        return diff
    }

    /// Copies the development schema to production when every change is additive; otherwise
    /// refuses whole, listing the changes production cannot take, and changes nothing.
    package func promote() throws -> SchemaDiff {
        try containerStore.exclusively { try promote(with: store) }
    }

    private func promote(with store: any StoreBackend) throws -> SchemaDiff {
        let development = try store.schemaDefinition(of: scope(.development))
        let diff = SchemaDiff(from: try store.schemaDefinition(of: scope(.production)), to: development)
        let refused = diff.changes.filter { !$0.isAdditive }
        guard refused.isEmpty else {
            throw CloudSeedError(
                collecting: refused.map {
                    CloudSeedError(
                        .productionSchemaRefused,
                        "production cannot take this change: \($0); production schemas are additive only, so restore it in development"
                    )
                })
        }
        try store.write { try $0.applySchema(development, to: scope(.production)) }
        return diff
    }
}
