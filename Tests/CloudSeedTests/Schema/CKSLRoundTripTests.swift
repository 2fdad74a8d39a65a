import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// Random valid schemas: every construct CKSL has, reserved words and roles with spaces included.
enum RandomSchema {
    static func make(using random: inout SeededGenerator) -> SchemaDefinition {
        let roles = (0..<Int.random(in: 0...3, using: &random)).map { _ in roleName(using: &random) }
        let recordTypes = (0..<Int.random(in: 0...5, using: &random)).map { _ in
            RecordTypeDefinition(
                name: name(using: &random),
                fields: (0..<Int.random(in: 0...8, using: &random)).map { _ in field(using: &random) }
                    + systemFields(using: &random),
                grants: (Grant.Role.systemRoles + roles.map { Grant.Role($0) }).compactMap { role in
                    let permissions = Grant.Permission.allCases.filter { _ in Bool.random(using: &random) }
                    return permissions.isEmpty ? nil : Grant(Set(permissions), to: role)
                })
        }
        return SchemaDefinition(roles: roles, recordTypes: recordTypes)
    }

    private static let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    private static let identifierCharacters = letters + Array("0123456789_")
    private static let reservedWords = ["grant", "Preferred", "QUERYABLE", "sortable", "Searchable"]

    /// An identifier, sometimes a reserved word (printed in quotes) or a Core Data name.
    static func name(using random: inout SeededGenerator) -> String {
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return reservedWords.randomElement(using: &random) ?? "grant"
        case 1: return "CD_" + String(letters.randomElement(using: &random) ?? "x")
        default:
            let rest = (0..<Int.random(in: 0...12, using: &random)).compactMap { _ in
                identifierCharacters.randomElement(using: &random)
            }
            return String([letters.randomElement(using: &random) ?? "a"] + rest)
        }
    }

    private static func roleName(using random: inout SeededGenerator) -> String {
        Bool.random(using: &random) ? name(using: &random) : "\(name(using: &random)) \(name(using: &random))"
    }

    private static func dataType(using random: inout SeededGenerator) -> FieldDataType {
        let primitive = PrimitiveType.allCases.randomElement(using: &random) ?? .string
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return .number(preferred: [nil, .int64, .double].randomElement(using: &random) ?? nil)
        case 1, 2: return .list(primitive)
        default: return .primitive(primitive)
        }
    }

    private static func field(using random: inout SeededGenerator) -> FieldDefinition {
        let type = dataType(using: &random)
        let isEncrypted =
            FieldDefinition.encryptionRejection(type: type) == nil && Int.random(in: 0..<5, using: &random) == 0
        return FieldDefinition(
            name: name(using: &random), type: type, isEncrypted: isEncrypted,
            options: options(for: type, isEncrypted, using: &random))
    }

    /// Some of the system fields, with options, as exports list them when they are indexed.
    private static func systemFields(using random: inout SeededGenerator) -> [FieldDefinition] {
        FieldDefinition.systemFields.filter { _ in Int.random(in: 0..<4, using: &random) == 0 }.map { field in
            var field = field
            field.options = options(for: field.type, false, using: &random)
            return field
        }
    }

    private static func options(for type: FieldDataType, _ isEncrypted: Bool, using random: inout SeededGenerator)
        -> Set<FieldDefinition.Option>
    {
        Set(
            FieldDefinition.allowedOptions(type: type, isEncrypted: isEncrypted).filter { _ in
                Bool.random(using: &random)
            })
    }
}

@Suite struct CKSLRoundTripTests {
    @Test func randomSchemasParseBackFromTheirPrintedText() throws {
        var random = SeededGenerator(seed: 2024)
        for index in 0..<400 {
            let schema = RandomSchema.make(using: &random)
            let text = CKSLPrinter.print(schema)
            #expect(try CKSLParser.parse(text, file: "random-\(index).ckdb") == schema, "\(text)")
            #expect(!schema.validate().contains { $0.severity == .error }, "\(text)")
        }
    }

    @Test func randomSchemasConvertToAStoreSchemaAndBackWithTheSameUserFieldTypes() throws {
        var random = SeededGenerator(seed: 7)
        for _ in 0..<100 {
            let schema = Schema(RandomSchema.make(using: &random))
            #expect(Schema(try SchemaDefinition(schema)) == schema)
        }
    }

    @Test func diffOfARandomSchemaWithItselfIsEmptyAndWithNothingAddsEveryType() {
        var random = SeededGenerator(seed: 99)
        for _ in 0..<100 {
            let schema = RandomSchema.make(using: &random)
            #expect(SchemaDiff(from: schema, to: schema).isEmpty)
            let diff = SchemaDiff(from: SchemaDefinition(), to: schema)
            #expect(
                diff.changes == schema.roles.map(SchemaChange.roleAdded)
                    + schema.recordTypes.map(SchemaChange.recordTypeAdded))
            #expect(diff.isAdditive)
            #expect(!SchemaDiff(from: schema, to: SchemaDefinition()).isAdditive || schema.recordTypes.isEmpty)
        }
    }
}
