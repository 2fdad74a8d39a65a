import CloudKitWire
import CloudSeed

/// The console's schema edits, as CloudKit Console makes them: a field added to a record type, or
/// an index to a field, in the development schema through `schema import`'s own path; production
/// refuses both in CloudKit's words.
enum ConsoleSchemaEdits {
    /// `{recordType, fieldName, fieldType}`: a new field (`fieldType` as CKSL writes it: `STRING`, `LIST<INT64>`).
    static func addField(container: String, environment: String, body: [UInt8], store: ContainerStore) throws
        -> String
    {
        let request = try WebServicesJSON(parsing: body)
        let (typeName, fieldName) = try names(request)
        let typeText = request["fieldType"]?.string ?? ""
        guard let fieldType = FieldType(name: typeText), let dataType = FieldDataType(fieldType) else {
            throw ServerError(.badRequest, "unknown field type '\(typeText)'; use STRING, INT64, … or LIST<STRING>")
        }
        return try edit(container: container, environment: environment, typeName, fieldName, store: store) {
            recordType in
            guard recordType.field(named: fieldName) == nil else {
                throw ServerError(.badRequest, "record type \(typeName) already has a field '\(fieldName)'")
            }
            recordType.fields.append(FieldDefinition(name: fieldName, type: dataType))
        }
    }

    /// `{recordType, fieldName, index}`: `QUERYABLE`, `SORTABLE` or `SEARCHABLE` added to a field.
    static func addIndex(container: String, environment: String, body: [UInt8], store: ContainerStore) throws
        -> String
    {
        let request = try WebServicesJSON(parsing: body)
        let (typeName, fieldName) = try names(request)
        let indexText = request["index"]?.string ?? ""
        guard let index = FieldDefinition.Option(rawValue: indexText) else {
            throw ServerError(.badRequest, "unknown index '\(indexText)'; use QUERYABLE, SORTABLE or SEARCHABLE")
        }
        return try edit(container: container, environment: environment, typeName, fieldName, store: store) {
            recordType in
            guard let offset = recordType.fields.firstIndex(where: { $0.name == fieldName }) else {
                throw ServerError(.badRequest, "record type \(typeName) has no field '\(fieldName)'")
            }
            let type = recordType.fields[offset].type
            if index == .searchable, type != .primitive(.string), type != .list(.string) {
                throw ServerError(
                    .badRequest, "SEARCHABLE takes a STRING or LIST<STRING> field; '\(fieldName)' is \(type)")
            }
            if type == .primitive(.asset) {
                throw ServerError(.badRequest, "an ASSET field cannot be indexed")
            }
            recordType.fields[offset].options.insert(index)
        }
    }

    private static func names(_ request: WebServicesJSON) throws -> (String, String) {
        guard let recordType = request["recordType"]?.string, let field = request["fieldName"]?.string,
            !field.isEmpty
        else {
            throw ServerError(.badRequest, "the request needs recordType and fieldName")
        }
        return (recordType, field)
    }

    /// Applies `change` to one record type of the development schema and answers the schema as
    /// ``Console/schema(container:environment:store:)`` does.
    private static func edit(
        container: String, environment: String, _ typeName: String, _ fieldName: String, store: ContainerStore,
        _ change: (inout RecordTypeDefinition) throws -> Void
    ) throws -> String {
        guard let environment = ContainerEnvironment(rawValue: environment) else {
            throw ServerError(.badRequest, "unknown environment '\(environment)'; use development or production")
        }
        guard environment == .development else {
            throw ServerError(
                .badRequest, "Cannot create or modify field '\(fieldName)' in record '\(typeName)' in production schema"
            )
        }
        let operations = SchemaOperations(store: store, container: container)
        var definition = try operations.definition(from: environment.rawValue)
        guard let offset = definition.recordTypes.firstIndex(where: { $0.name == typeName }) else {
            throw ServerError(.badRequest, "Did not find record type: \(typeName)")
        }
        try change(&definition.recordTypes[offset])
        _ = try operations.importIntoDevelopment(definition)
        return try Console.schema(container: container, environment: environment.rawValue, store: store)
    }
}
