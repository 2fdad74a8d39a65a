/// A filter's value (`--filter 'price < 100'`) as a value of its field's type, or CloudKit's
/// refusal when it cannot be one; every store then binds it in its own column form.
enum QueryFilterValue {
    static func typed(_ text: String, as type: FieldType, field: String) throws -> RecordValue {
        let converter = ValueConverter(
            loadAsset: { _, _ in throw ValueConverter.Mismatch(valueType: "STRING", detail: nil) }, recordName: { $0 })
        do {
            return try converter.convert(.text(text), to: type, at: SourcePosition(file: "filter"))
        } catch {
            throw CloudSeedError(
                .invalidOption,
                "Field '\(field)' has a value type of \(type.wireName) and cannot be queried using filter value type \(ValueConverter.valueType(of: .text(text))); give a \(type.schemaName) value"
            )
        }
    }
}

extension StoreBackend {
    /// The records of one type in a zone that `query` selects, in its order; each filter's value
    /// is read as an import reads a text of its field's type.
    package func query(_ query: RecordQuery, in scope: StoreScope) throws -> [CloudRecord] {
        let checked = try CheckedQuery(
            query, definition: schemaDefinition(of: scope.schemaScope), schema: schema(of: scope.schemaScope),
            typed: { try QueryFilterValue.typed($0, as: $1, field: $2) })
        return try self.query(checked, in: scope)
    }
}
