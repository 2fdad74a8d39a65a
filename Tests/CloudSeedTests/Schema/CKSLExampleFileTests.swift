import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// The real `.ckdb` files in `../shared/examples/cksl` beside the repository, collected from public
/// repositories; tests that read them are skipped where the folder is missing.
enum CKSLExamples {
    /// `../shared/examples/cksl`, relative to the repository root.
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Schema
        .deletingLastPathComponent()  // CloudSeedTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // the repository
        .appendingPathComponent("../shared/examples/cksl")
        .standardizedFileURL

    static let isAvailable = FileManager.default.fileExists(atPath: folder.path)

    /// Unedited `cktool export-schema` output.
    static let exports = [
        "AlexW00_hibi_1.ckdb", "ngs_tides-swift_1.ckdb", "pagoda8_Walking-Buddy_1.ckdb", "robbiet480_Dispatch_1.ckdb",
    ]

    /// An export edited by hand: a type out of order and a misaligned field.
    static let handEdited = "ajsutton_moolah-native_1.ckdb"

    static func text(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    static func schema(_ name: String) throws -> SchemaDefinition {
        try CKSLParser.parse(text(name), file: name)
    }
}

@Suite(.enabled(if: CKSLExamples.isAvailable, "../shared/examples/cksl is not beside the repository"))
struct CKSLExampleFileTests {
    @Test(arguments: CKSLExamples.exports)
    func printsAnUneditedExportBackByteForByte(file: String) throws {
        let text = try CKSLExamples.text(file)
        #expect(CKSLPrinter.print(try CKSLParser.parse(text, file: file)) == text)
    }

    @Test func printsTheHandEditedExportInCanonicalOrderAndAlignment() throws {
        let text = try CKSLExamples.text(CKSLExamples.handEdited)
        let schema = try CKSLParser.parse(text, file: CKSLExamples.handEdited)
        let printed = CKSLPrinter.print(schema)
        #expect(printed != text)
        #expect(try CKSLParser.parse(printed) == schema)

        // The three edits, undone: CSVImportProfileRecord sorts before CategoryRecord ("S" < "a");
        // accountScope is padded like its neighbours; TransactionRecord's types are one column further
        // right than its longest name needs (a longer field was removed by hand), at column 39, not 38.
        var blocks = text.components(separatedBy: "\n\n")
        let category = try #require(blocks.firstIndex { $0.hasPrefix("    RECORD TYPE CategoryRecord (") })
        let csv = try #require(blocks.firstIndex { $0.hasPrefix("    RECORD TYPE CSVImportProfileRecord (") })
        blocks.swapAt(category, csv)
        let transaction = try #require(blocks.firstIndex { $0.hasPrefix("    RECORD TYPE TransactionRecord (") })
        blocks[transaction] = blocks[transaction].split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("        ") && !line.contains("GRANT") ? line.prefix(37) + line.dropFirst(38) : line
        }.joined(separator: "\n")
        let expected = blocks.joined(separator: "\n\n")
            .replacingOccurrences(of: "accountScope   STRING", with: "accountScope    STRING")
        #expect(printed == expected)
    }

    @Test(arguments: CKSLExamples.exports + [CKSLExamples.handEdited])
    func parsesBackToTheSameSchemaAfterPrinting(file: String) throws {
        let schema = try CKSLExamples.schema(file)
        #expect(try CKSLParser.parse(CKSLPrinter.print(schema)) == schema)
        #expect(SchemaDiff(from: schema, to: try CKSLParser.parse(CKSLPrinter.print(schema))).isEmpty)
    }

    @Test func readsRolesGrantsAndIndexesOfDispatch() throws {
        let schema = try CKSLExamples.schema("robbiet480_Dispatch_1.ckdb")
        #expect(schema.roles == ["moderator"])
        #expect(
            schema.recordTypes.map(\.name) == [
                "CD_PersonEntity", "CD_PromptGroup", "CD_Question", "CD_Report", "CD_Response", "CD_TokenEntity",
                "CatalogQuestion", "QuestionFlag", "SubmittedQuestion", "Users",
            ])
        let question = try #require(schema.recordType(named: "CatalogQuestion"))
        #expect(question.grants == [Grant([.read], to: .world), Grant([.create, .write], to: "moderator")])
        #expect(question.field(named: "tags") == FieldDefinition(name: "tags", type: .list(.string)))
        #expect(question.field(named: "___recordID")?.options == [.queryable])
        #expect(question.field(named: "approvedAt")?.options == [.sortable])
        let users = try #require(schema.recordType(named: "Users"))
        #expect(users.userFields == [FieldDefinition(name: "roles", type: .list(.int64))])
    }

    @Test func validationWarnsAboutTypesWithoutTheDefaultGrants() throws {
        #expect(
            try CKSLExamples.schema("robbiet480_Dispatch_1.ckdb").validate().map(\.description) == [
                #"warning: CatalogQuestion: lacks GRANT WRITE TO "_creator", which a type needs in the public database"#,
                #"warning: CatalogQuestion: lacks GRANT CREATE TO "_icloud", which a type needs in the public database"#,
                #"warning: QuestionFlag: lacks GRANT WRITE TO "_creator", which a type needs in the public database"#,
                #"warning: QuestionFlag: lacks GRANT READ TO "_world", which a type needs in the public database"#,
                #"warning: SubmittedQuestion: lacks GRANT READ TO "_world", which a type needs in the public database"#,
            ])
        #expect(
            try CKSLExamples.schema("pagoda8_Walking-Buddy_1.ckdb").validate().map(\.description) == [
                #"warning: Profiles: lacks GRANT READ TO "_world", which a type needs in the public database"#
            ])
        #expect(try CKSLExamples.schema("AlexW00_hibi_1.ckdb").validate().isEmpty)
    }

    @Test func convertsAnExportToTheStoreSchema() throws {
        let schema = Schema(try CKSLExamples.schema("pagoda8_Walking-Buddy_1.ckdb"))
        #expect(
            schema.recordTypes["Photos"]?.fields == [
                "authorID": .string, "collected": .int64, "location": .location, "photo": .asset,
            ])
        #expect(schema.recordTypes["Friends"]?.fields == ["friends": .list(.string), "id": .string])
    }
}
