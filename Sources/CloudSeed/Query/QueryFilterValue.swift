/// A filter's value (`--filter 'price < 100'`) as a value of its field's type, or CloudKit's
/// refusal when it cannot be one; every store then binds it in its own column form.
enum QueryFilterValue {
    static func typed(_ text: String, as type: FieldType, field: String) throws -> RecordValue {
        let converter = ValueConverter(
            loadAsset: { _, _ in throw ValueConverter.Mismatch(valueType: "STRING", detail: nil) }, recordName: { $0 })
        do {
            return try converter.convert(.text(text), to: type, at: SourcePosition(file: "--filter"))
        } catch {
            throw CloudSeedError(
                .invalidOption,
                "Field '\(field)' has a value type of \(type.wireName) and cannot be queried using filter value type \(ValueConverter.valueType(of: .text(text))); give a \(type.schemaName) value"
            )
        }
    }
}
