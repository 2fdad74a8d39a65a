package import CloudSeedCore
package import CloudSeedSchema

/// The schema changes a store makes one at a time, each in its own SQL; ``takeSteps(to:in:)``
/// makes a whole definition the schema through them, the same way in every store.
package protocol SchemaEditing: StoreBackend, StoreTransaction {
    /// Removes a field from a record type of the schema; its data stays in the store.
    func removeField(_ field: String, from recordType: String, in scope: SchemaScope) throws
    /// Removes a record type from the schema; its records stay in the store.
    func removeRecordType(_ name: String, in scope: SchemaScope) throws
}

extension SchemaEditing {
    /// Takes the steps from the schema of `scope` to the types and fields of `definition`.
    package func takeSteps(to definition: SchemaDefinition, in scope: SchemaScope) throws {
        for step in SchemaStep.steps(from: try schema(of: scope), to: Schema(definition)) {
            switch step {
            case .createRecordType(let name): try createRecordType(name, in: scope)
            case .addField(let field, let type, let name): try addField(field, type: type, to: name, in: scope)
            case .removeField(let field, let name): try removeField(field, from: name, in: scope)
            case .removeRecordType(let name): try removeRecordType(name, in: scope)
            }
        }
    }
}

extension SQLiteContainerStore: SchemaEditing {}

extension PostgresContainerStore: SchemaEditing {}
