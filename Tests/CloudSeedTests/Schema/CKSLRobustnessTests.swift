import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// The parser on input nobody would write: it must return or throw a positioned error, never crash,
/// hang or recurse without bound.
@Suite struct CKSLRobustnessTests {
    /// Parses `text`; on success checks that the schema prints and parses back the same, on failure that
    /// the error has a position, a message, the source line and a caret.
    static func checkParses(_ text: String) {
        do {
            let schema = try CKSLParser.parse(text, file: "fuzz.ckdb")
            #expect(try CKSLParser.parse(CKSLPrinter.print(schema)) == schema, "\(text)")
        } catch let error as CloudSeedError {
            let lines = error.description.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(error.position?.line != nil && error.position?.column != nil, "\(text)")
            #expect(error.description.hasPrefix("fuzz.ckdb:"), "\(text)")
            #expect(lines.count >= 3 && lines.last?.last == "^", "\(text)")
        } catch {
            Issue.record("unexpected error \(error) for \(text)")
        }
    }

    @Test func randomBytesGiveAPositionedErrorOrASchema() {
        var random = SeededGenerator(seed: 1)
        let likely = Array("DEFINE SCHEMA RECORD TYPE CREATE ROLE GRANT TO LIST<STRING> ()<>,;\"\"_/*-\n\t\r".utf8)
        for _ in 0..<3000 {
            let count = Int.random(in: 0...120, using: &random)
            var bytes = Bool.random(using: &random) ? Array("DEFINE SCHEMA ".utf8) : []
            for _ in 0..<count {
                let byte =
                    Bool.random(using: &random)
                    ? likely.randomElement(using: &random) ?? 0 : UInt8.random(in: 0...255, using: &random)
                bytes.append(byte)
            }
            Self.checkParses(String(decoding: bytes, as: UTF8.self))
        }
    }

    @Test func randomTokenSoupsGiveAPositionedErrorOrASchema() {
        var random = SeededGenerator(seed: 2)
        let vocabulary = [
            "DEFINE", "SCHEMA", "RECORD", "TYPE", "CREATE", "ROLE", "GRANT", "READ", "WRITE", "TO", "(", ")", ",", ";",
            "<", ">", "LIST", "STRING", "INT64", "ASSET", "NUMBER", "PREFERRED", "AS", "DOUBLE", "ENCRYPTED",
            "QUERYABLE", "SEARCHABLE", "SORTABLE", #""_world""#, #""___etag""#, #""___recordID""#, "name", "Artist",
            #""test role""#, "moderator", "_x", "1x", "// comment\n", "-- comment\n", "/* comment */", "/*", "\"", "@",
            "\n", "é",
        ]
        for _ in 0..<3000 {
            let count = Int.random(in: 0...60, using: &random)
            var tokens = Int.random(in: 0..<10, using: &random) < 7 ? ["DEFINE", "SCHEMA"] : []
            for _ in 0..<count { tokens.append(vocabulary.randomElement(using: &random) ?? "") }
            Self.checkParses(tokens.joined(separator: Bool.random(using: &random) ? " " : ""))
        }
    }

    @Test func randomValidSchemasWithOneTokenDroppedGiveAPositionedErrorOrASchema() {
        var random = SeededGenerator(seed: 3)
        for _ in 0..<300 {
            var words = CKSLPrinter.print(RandomSchema.make(using: &random)).split(separator: " ")
            guard !words.isEmpty else { continue }
            words.remove(at: Int.random(in: 0..<words.count, using: &random))
            Self.checkParses(words.joined(separator: " "))
        }
    }

    @Test(arguments: ["(", "<", "(<"])
    func deepNestingFailsAtTheFirstSurplusBracket(bracket: String) {
        let nested = String(repeating: bracket, count: 100_000)
        let error = ckslError("DEFINE SCHEMA RECORD TYPE T (tags LIST" + nested)
        let expected =
            bracket == "<"
            ? "schema.ckdb:1:40: expected ASSET, BYTES, DOUBLE, INT64, LOCATION, REFERENCE, STRING or TIMESTAMP, found \"<\""
            : "schema.ckdb:1:39: expected \"<\", found \"(\""
        #expect(error?.hasPrefix(expected + "\n") == true)
        let column = bracket.hasPrefix("(") ? 30 : 29
        #expect(
            ckslError("DEFINE SCHEMA RECORD TYPE T " + nested)?.hasPrefix("schema.ckdb:1:\(column): expected ") == true)
    }

    @Test func longInputsParseInOnePass() throws {
        let fields = (0..<1000).map { "field\($0) STRING QUERYABLE" }.joined(separator: ",\n")
        let types = (0..<100).map { "RECORD TYPE T\($0) (\n\(fields)\n);" }.joined(separator: "\n")
        let schema = try CKSLParser.parse("DEFINE SCHEMA\n" + types)
        #expect(schema.recordTypes.count == 100)
        #expect(schema.recordTypes.last?.fields.count == 1006)
        #expect(
            ckslError("DEFINE SCHEMA /*" + String(repeating: "*", count: 100_000))?.hasPrefix(
                #"schema.ckdb:1:15: expected "*/" to end the comment that starts here, found end of file"#) == true)
    }
}
