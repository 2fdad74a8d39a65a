package import CloudSeedCore

/// The schema definition a store parsed last for each container environment, by its CKSL text: a
/// server reads the schema for every request, and the text changes only when the schema does.
package final class ParsedSchemas {
    private var last: [SchemaScope: (text: String, definition: SchemaDefinition)] = [:]

    package init() {}

    /// The definition `text` holds, parsed only when it is not the text parsed last for `scope`.
    package func definition(of text: String, for scope: SchemaScope) throws -> SchemaDefinition {
        if let cached = last[scope], cached.text == text { return cached.definition }
        let definition = try CKSLParser.parse(text, file: "\(scope.container) \(scope.environment.rawValue) schema")
        last[scope] = (text, definition)
        return definition
    }
}
