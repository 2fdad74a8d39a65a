import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// CSV cells holding JSON arrays of scalars are lists.
@Suite struct JSONListTextTests {
    @Test func readsArraysOfScalars() {
        #expect(JSONListText.items(#"["oil","portrait"]"#) == [.string("oil"), .string("portrait")])
        #expect(JSONListText.items(#"[ "still life" , "abstract" ]"#) == [.string("still life"), .string("abstract")])
        #expect(JSONListText.items("[]") == [])
        #expect(JSONListText.items("[ ]") == [])
        #expect(
            JSONListText.items("[1, -2.5, 9223372036854775807, 1e3, true, false, null]") == [
                .integer(1), .real(-2.5), .integer(Int64.max), .real(1000), .bool(true), .bool(false), .null,
            ])
        #expect(
            JSONListText.items(#"["a\"b","\\","\/","\n\t","\u00e9","\ud83d\udd25","Zoë"]"#) == [
                .string("a\"b"), .string("\\"), .string("/"), .string("\n\t"), .string("é"), .string("🔥"),
                .string("Zoë"),
            ])
    }

    @Test(arguments: [
        "", "[", "]", "[,]", "[1,]", "[,1]", #"["a" "b"]"#, #"["a"] x"#, "[[1]]", #"[{"a":1}]"#, "[01]", "[1.]",
        "[+1]", "[tru]", "[nul]", #"["\x"]"#, #"["\ud83d"]"#, "[\"a\tb\"]", #"["a]"#, "[1e400]", "oil, portrait",
        "[oil]",
    ])
    func refusesWhatIsNoArrayOfScalars(text: String) {
        #expect(JSONListText.items(text) == nil)
    }

    @Test(arguments: [
        (#"["oil","portrait"]"#, FieldType.list(.string)), ("[1,2]", .list(.int64)), ("[1,2.5]", .list(.double)),
        ("[]", .list(.string)), (#"["2019-10-28"]"#, .list(.timestamp)), ("[true]", .list(.int64)),
        ("[oil]", .string), ("[[1]]", .string),
    ])
    func aCSVCellOfAnArrayIsAList(text: String, type: FieldType) {
        #expect(InferredKind(of: .text(text))?.fieldType == type)
        // A JSON string holding an array is a string: its author wrote a string.
        #expect(InferredKind(of: .string(text))?.fieldType == .string)
    }

    @Test(arguments: [
        #"["oil","portrait"]"#, "[]", "[null]", "[1, 2]", "[1, 2.5]", "[true, 1]", #"["2019-10-28", "2020-01-01"]"#,
        #"["a\"b", "c"]"#, #"["\u0031"]"#, #"["12", 3]"#, #"[1, "x"]"#, "[1e400]", "[[1]]",
    ])
    func tellsAListsKindAsItsElementsDo(text: String) {
        var copy = text
        let kind = copy.withUTF8(JSONListText.kind)
        #expect(kind == JSONListText.items(text).map { InferredKind(of: .array($0))! }, "\(text)")
        // Typed from its bytes, as from its text.
        guard let kind else { return }
        let converter = ValueConverter(loadAsset: { _, _ in throw CancellationError() }, recordName: { $0 })
        let byText = try? converter.convert(.text(text), to: kind.fieldType, at: SourcePosition(file: "t"))
        let byBytes = copy.withUTF8 { converter.convert(utf8: $0, to: kind.fieldType) }
        #expect(byBytes?.value == byText, "\(text)")
        // A kind told by the typing is the kind the survey would find.
        if let told = byBytes?.kind { #expect(told.inferred == kind, "\(text)") }
        #expect(
            (byBytes?.kind == .stringList) == [#"["oil","portrait"]"#, #"["a\"b", "c"]"#].contains(text), "\(text)")
    }

    @Test func aListColumnIsStoredAsAListAndAStringColumnAsWritten() throws {
        let csv = #"""
            title,tags,sizes,notes
            A,"[""oil"",""portrait""]",[10],"[""kept""]"
            B,[],"[20, 30.5]",plain
            C,,[],"[""x""]"

            """#
        let result = try ColumnTypingTests.imported([("artworks.csv", csv)])
        let artwork = try #require(result.summary.plan.recordType("Artwork"))
        #expect(
            artwork.fields.mapValues(\.type) == [
                "title": .string, "tags": .list(.string), "sizes": .list(.double),
                "notes": .string,
            ])
        let rows = try #require(result.tables["Artwork"])
        #expect(rows.map { $0.contains(.text(#"'["oil","portrait"]'"#)) } == [true, false, false])
        #expect(rows.map { $0.contains(.text(#"'[20.0,30.5]'"#)) } == [false, true, false])
        // A STRING column keeps its cells as written.
        #expect(rows.map { $0.contains(.text(#"'["kept"]'"#)) } == [true, false, false])
    }
}
