import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudSeed

/// CSV records typed where they are read (``ColumnTyping``) are stored byte for byte as the
/// general way (a row, prepared, named and typed) stores them, and the records it cannot take go
/// the general way, errors and rejects included.
@Suite struct ColumnTypingTests {
    static let artists = """
        firstName,lastName,born
        Zoë,Müller,1971-03-02
        Mei,Chen,1980-11-30
        美咲,山田,1990-01-01

        """

    // Titles unique (some non-ASCII, one with a newline), an artist named as "first last", a
    // latitude without its longitude in one row, a quoted empty note, a short row, empty cells.
    static let artworks = #"""
        catalogNumber,title,artist,created,price,copies,onDisplay,latitude,longitude,notes
        115,"Harbor at Dusk, ""late""",Zoë Müller,2019-05-04T12:34:56Z,1200.5,3,true,59.33,18.07,oil
        116,Fenêtre 🔥 漢字,Mei Chen,1969-12-31T23:59:59.999Z,99,1,false,-12.5,,""
        117,"Two
        lines",美咲 山田,2001-01-01,0.25,,true,,,
        118,Short,Mei Chen

        """#

    /// Every column of every record table, quoted by SQLite, in record-name order: the record
    /// name first, then every column in the table's order.
    static func tables(of path: String) throws -> [String: [[SQLiteValue]]] {
        let database = try SQLiteDatabase(path: path)
        var tables: [String: [[SQLiteValue]]] = [:]
        for table in ["Artist", "Artwork"] {
            let columns = try database.rows("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(table)]).map {
                row -> String in
                guard case .text(let name) = row[0] else { return "NULL" }
                return "quote(\(SQLiteLayout.quoted(name)))"
            }
            guard !columns.isEmpty else { continue }
            tables[table] = try database.rows(
                "SELECT quote(\"___recordID\"), \(columns.joined(separator: ", ")) FROM \(SQLiteLayout.quoted(table)) ORDER BY \"___recordID\""
            )
        }
        tables["_cloudseed_fields"] = try database.rows(
            "SELECT record_type, field, field_type, column_name FROM _cloudseed_fields ORDER BY 1, 2")
        return tables
    }

    /// Imports `files` (name, text) into a new store, with and without typing CSV where it is read.
    static func importBothWays(
        _ files: [(String, String)], options: MappingOptions = MappingOptions()
    ) throws -> (
        whereRead: [String: [[SQLiteValue]]], general: [String: [[SQLiteValue]]], summaries: [ImportSummary],
        rejected: [[String]]
    ) {
        let folder = try TemporaryFolder()
        let sources = try files.map { try SourceFile(path: folder.write($0.0, $0.1)) }
        var results: [[String: [[SQLiteValue]]]] = []
        var summaries: [ImportSummary] = []
        var rejects: [[String]] = []
        for cellByCell in [true, false] {
            var options = options
            options.takesCellByCell = cellByCell
            let path = folder.path("\(cellByCell).sqlite")
            let importer = Importer(
                store: try SQLiteContainerStore(path: path), scope: StoreScope(), options: options,
                now: 1_700_000_000_000)
            var rejected: [String] = []
            summaries.append(try importer.run(sources, rejected: { rejected += $0.jsonLines }))
            rejects.append(rejected)
            results.append(try tables(of: path))
        }
        return (results[0], results[1], summaries, rejects)
    }

    @Test func recordsTypedWhereReadAreStoredAsTheGeneralWayStoresThem() throws {
        let result = try Self.importBothWays([("artists.csv", Self.artists), ("artworks.csv", Self.artworks)])
        #expect(result.whereRead == result.general)
        // The same choices, printed the same (the run's time aside).
        #expect(
            result.summaries[0].text.replacingOccurrences(of: #"in \d+\.\d+ s"#, with: "", options: .regularExpression)
                == result.summaries[1].text.replacingOccurrences(
                    of: #"in \d+\.\d+ s"#, with: "", options: .regularExpression))
        #expect(result.whereRead["_cloudseed_fields"]?.count == 13)
        let artworks = try #require(result.whereRead["Artwork"])
        #expect(artworks.count == 4)
        #expect(
            artworks.map { $0[0] } == [
                .text("'Fenetre  han zi'"), .text("'Harbor at Dusk, \"late\"'"), .text("'Short'"),
                .text("'Two\nlines'"),
            ])
        #expect(result.summaries[0].plan.recordType("Artwork")?.namingRule == .naturalKey("title"))
        #expect(result.summaries[0].plan.recordType("Artwork")?.fields["artist"]?.type == .reference)
        #expect(result.summaries[0].plan.recordType("Artist")?.namingRule == .naturalKey("{firstName} {lastName}"))
        #expect(
            result.whereRead["Artist"]?.map { $0[0] } == [
                .text("'Mei Chen'"), .text("'Zoe Muller'"), .text("'mei xiao shan tian'"),
            ])
    }

    @Test func recordsNamedByANameColumnAreStoredAsTheGeneralWayStoresThem() throws {
        // A `recordName` column names its records (a non-ASCII one too) and is no field; a record
        // without one is named by position; `recordChangeTag` is no field either; `id` is both a
        // lesser name column and a field, and `artist` names Artists by record name.
        let artists = """
            recordName,firstName,lastName
            Zoë-1,Zoë,Müller
            mei,Mei,Chen

            """
        let artworks = #"""
            recordName,recordChangeTag,id,caption,artist,price
            Kraków-7,tag1,a7,"Harbor, ""late""",Zoë-1,1200.5
            ,,a8,Fenêtre,mei,99
            ,,,Fenêtre,mei,3

            """#
        let result = try Self.importBothWays([("artists.csv", artists), ("artworks.csv", artworks)])
        #expect(result.whereRead == result.general)
        #expect(result.summaries[0].plan.recordType("Artist")?.namingRule == .column("recordName"))
        #expect(result.summaries[0].plan.recordType("Artwork")?.namingRule == .position)
        #expect(
            result.whereRead["Artwork"]?.map { $0[0] } == [.text("'Artwork-3'"), .text("'Krakow-7'"), .text("'a8'")])
        #expect(result.whereRead["Artist"]?.map { $0[0] } == [.text("'Zoe-1'"), .text("'mei'")])
        #expect(
            result.whereRead["_cloudseed_fields"]?.compactMap { row -> String? in
                guard case .text(let type) = row[0], type == "Artwork", case .text(let field) = row[1] else {
                    return nil
                }
                return field
            } == ["artist", "caption", "id", "price"])
    }

    @Test func recordsNamedByATemplateAreStoredAsTheGeneralWayStoresThem() throws {
        var options = MappingOptions()
        options.nameTemplates = [
            try NameTemplate(parsing: "Artwork={catalogNumber} {title}"),
            try NameTemplate(parsing: "Artist={lastName}"),
        ]
        let result = try Self.importBothWays(
            [("artists.csv", Self.artists), ("artworks.csv", Self.artworks)], options: options)
        #expect(result.whereRead == result.general)
        #expect(result.summaries[0].plan.recordType("Artwork")?.namingRule == .template("{catalogNumber} {title}"))
        #expect(
            result.whereRead["Artwork"]?.map { $0[0] } == [
                .text("'115 Harbor at Dusk, \"late\"'"), .text("'116 Fenetre  han zi'"), .text("'117 Two\nlines'"),
                .text("'118 Short'"),
            ])
        #expect(
            result.whereRead["Artist"]?.map { $0[0] } == [.text("'Chen'"), .text("'Muller'"), .text("'shan tian'")])
    }

    /// Imports `artists` and `first` (a file name and its text) into a new store, both with and
    /// without taking cells, then the same again, then `artists` and `second` (the same name):
    /// each way's counts of the last two runs (created, updated, unchanged per type) and its store.
    static func reimportBothWays(
        first: (String, String), second: String
    ) throws -> [(again: [[Int]], changed: [[Int]], store: [String: [[SQLiteValue]]])] {
        let folder = try TemporaryFolder()
        let artists = try SourceFile(path: folder.write("artists.csv", Self.artists))
        let firstSource = try SourceFile(path: folder.write("first/\(first.0)", first.1))
        let secondSource = try SourceFile(path: folder.write("second/\(first.0)", second))
        return try [true, false].map { cellByCell in
            var options = MappingOptions()
            options.takesCellByCell = cellByCell
            let path = folder.path("\(cellByCell).sqlite")
            let store = try SQLiteContainerStore(path: path)
            func counts(_ summary: ImportSummary) -> [[Int]] {
                summary.counts.map { [$0.created, $0.updated, $0.unchanged] }
            }
            _ = try Importer(store: store, scope: StoreScope(), options: options, now: 1_700_000_000_000).run([
                artists, firstSource,
            ])
            let again = try Importer(store: store, scope: StoreScope(), options: options, now: 1_700_000_000_001).run([
                artists, firstSource,
            ])
            let changed = try Importer(store: store, scope: StoreScope(), options: options, now: 1_700_000_000_002).run(
                [artists, secondSource])
            return (counts(again), counts(changed), try GuessedPlanTests.tables(of: path))
        }
    }

    @Test func reimportedRecordsAreComparedAsTheGeneralWayComparesThem() throws {
        // The same files again: nothing changes; then one artwork's price and another's notes
        // change: two updates, the rest unchanged, and the same stores either way.
        let changed = Self.artworks.replacingOccurrences(of: ",1200.5,", with: ",1300,").replacingOccurrences(
            of: "0.25,,true,,,", with: "0.25,,true,,,new")
        let ways = try Self.reimportBothWays(first: ("artworks.csv", Self.artworks), second: changed)
        for way in ways {
            #expect(way.again == [[0, 0, 3], [0, 0, 4]])
            #expect(way.changed == [[0, 0, 3], [0, 2, 2]])
        }
        #expect(ways[0].store == ways[1].store)
    }

    @Test func recordsNamedByPositionAreStoredAsTheGeneralWayStoresThem() throws {
        // Two rows share a title, so Artworks are named by position; the latitude and longitude columns are apart.
        let csv = "latitude,title,copies,longitude\n1.5,Same,2,3\n,Same,,4\n-1,Other,7,-2\n"
        let result = try Self.importBothWays([("artworks.csv", csv)])
        #expect(result.whereRead == result.general)
        #expect(
            result.whereRead["Artwork"]?.map { $0[0] } == [
                .text("'Artwork-1'"), .text("'Artwork-2'"), .text("'Artwork-3'"),
            ])
        #expect(
            result.summaries[0].plan.recordType("Artwork")?.fields.keys.sorted() == [
                "copies", "location", "longitude", "title",
            ])
    }

    @Test func fieldsSurveyedColumnByColumnAreDecidedAsTheGeneralWayDecidesThem() throws {
        // Two CSV sources of one type: `copies` integers in one, a real in the other (DOUBLE).
        // `gallery` names Gallery records, a type a document before them brings in, which the
        // columns' survey learns of only when the rows reach the type's: their values are gathered again.
        let galleries =
            #"{"records": [{"recordName": "North", "recordType": "Gallery", "fields": {"city": {"value": "Oslo"}}}, "#
            + #"{"recordName": "South", "recordType": "Gallery", "fields": {"city": {"value": "Rome"}}}]}"#
        let result = try Self.importBothWays([
            ("catalogue.json", galleries),
            ("a/artworks.csv", "title,copies,gallery\nOne,1,North\nTwo,2,South\n"),
            ("b/artworks.csv", "title,copies,gallery\nThree,2.5,North\n"),
        ])
        #expect(result.whereRead == result.general)
        let artwork = try #require(result.summaries[0].plan.recordType("Artwork"))
        #expect(artwork.fields["copies"]?.type == .double)
        #expect(artwork.fields["gallery"]?.type == .reference)
        #expect(artwork.fields["gallery"]?.target == "Gallery")
        #expect(result.whereRead["Artwork"]?.count == 3)
    }

    @Test func cellsTypedByTheirBytesAreSurveyedAsTheirTexts() throws {
        // Pass one types a plain CSV source's cells by their bytes: booleans in any case, dates with
        // and without a time, integers widened to reals, a leading zero and a too-big real kept as
        // text, text starting with `t` or a non-ASCII letter, `""` quoted, asset paths.
        let csv = #"""
            title,flag,when,count,code,big,word,photo
            One,TRUE,2020-01-02,1,007,1e400,tree,a.png
            Two,false,2020-01-02T03:04:05Z,-2,12,2.5,Ñandú,b.png
            Three,True,,3.5,,,"",a.png

            """#
        let result = try Self.importBothWays([("artworks.csv", csv), ("a.png", "png"), ("b.png", "png")])
        #expect(result.whereRead == result.general)
        let fields = try #require(result.summaries[0].plan.recordType("Artwork")).fields.mapValues(\.type)
        #expect(
            fields == [
                "title": .string, "flag": .int64, "when": .timestamp, "count": .double, "code": .string, "big": .string,
                "word": .string,
                "photo": .asset,
            ])
        #expect(result.whereRead["Artwork"]?.count == 3)
    }

    @Test func valuesTypedByTheirBytesAreTheValuesTheirTextsConvertTo() throws {
        let converter = ValueConverter(
            loadAsset: { _, position in throw CloudSeedError(.missingAsset, "no assets here", at: position) },
            recordName: { $0 })
        let position = SourcePosition(file: "t.csv", line: 2, column: 1)
        let texts = [
            "", "0", "-0", "007", "42", "-17", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
            "1.5", "-0.25", "1e3",
            "1e400", "2.", ".5", "true", "FALSE", "2020-01-02", "2020-01-02T03:04:05.678Z", "2020-01-02T03:04:05+01:00",
            "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59Z", "253402300800000", "-62135596800001", "12:30", "abc",
            "Ñ",
            "True", "fAlSe", "tru", "truex", "fals", "tr\u{FC}e", "",
        ]
        var typedByBytes = 0
        var kindsTold = 0
        for type in [FieldType.int64, .double, .timestamp, .string] {
            for text in texts {
                var copy = text
                let byBytes = copy.withUTF8 { converter.convert(utf8: $0, to: type) }
                let byText = try? converter.convert(.text(text), to: type, at: position)
                // The bytes give a value only where the text converts to the same one, and a kind
                // only where the survey would classify the text as that kind.
                if let byBytes {
                    typedByBytes += 1
                    #expect(byBytes.value == byText, "\(text) as \(type.wireName)")
                    if let kind = byBytes.kind {
                        kindsTold += 1
                        #expect(
                            kind.inferred == copy.withUTF8(InferredKind.classify(utf8:)), "\(text) as \(type.wireName)")
                    }
                }
            }
        }
        // INT64: the 8 integers within 64 bits and the 4 booleans in any case; DOUBLE: the integers
        // and 1.5, -0.25, 1e3; TIMESTAMP: the 4 dates within the years 1 to 9999 and the integers
        // 0, -0, 42, -17. Never a STRING. Each tells its kind: the dates all start `dddd-`.
        #expect(typedByBytes == 8 + 4 + 11 + 8)
        #expect(kindsTold == typedByBytes)
        for text in texts + [
            "TRUE", "t\u{0130}", "\u{212A}", "false ", "ｔｒｕｅ", "tru\u{0435}", "true\u{0301}", "fal\u{017F}e",
            "\u{037E}",
        ] {
            var copy = text
            #expect(copy.withUTF8(BooleanText.value(utf8:)) == BooleanText.value(text), "\(text)")
        }
        for (latitude, longitude) in [
            ("59.33", "18.07"), ("-90", "180"), ("90.5", "0"), ("0", "-180.1"), ("1e1", "2"), ("x", "1"), ("", "1"),
        ] {
            var (a, b) = (latitude, longitude)
            let byBytes = a.withUTF8 { a in b.withUTF8 { converter.location(latitude: a, longitude: $0) } }
            let byText = try? converter.convert(
                LocationKeys.location(latitude: .text(latitude), longitude: .text(longitude)), to: .location,
                at: position)
            #expect(byBytes == byText, "\(latitude), \(longitude)")
        }
    }

    @Test func aRecordTheTypingCannotTakeGoesTheGeneralWay() throws {
        // copies pinned to INT64: the second row's "two" is refused, worded by the general way, and
        // with --skip-bad-rows the other rows are saved.
        let csv = "title,copies\nOne,1\nTwo,two\nThree,3\n"
        var options = MappingOptions(fieldTypes: [FieldTypeOverride(field: "copies", type: .int64)])
        options.skipBadRows = true
        let result = try Self.importBothWays([("artworks.csv", csv)], options: options)
        #expect(result.whereRead == result.general)
        #expect(result.whereRead["Artwork"]?.map { $0[0] } == [.text("'One'"), .text("'Three'")])
        #expect(result.rejected[0] == result.rejected[1])
        #expect(result.rejected[0].count == 1)
        #expect(
            result.rejected[0].first?.contains(
                "invalid attempt to set value type STRING for field 'copies' for type 'Artwork', defined to be: INT64")
                == true)
        #expect(result.summaries.map { $0.counts.map(\.refused) } == [[1], [1]])
    }

    @Test func theTypingTakesAPlainHeaderAndLeavesTheOthersToTheGeneralWay() throws {
        let folder = try TemporaryFolder()
        let source = try SourceFile(path: folder.write("artworks.csv", "title,latitude,longitude\nA,1,2\n"))
        let options = MappingOptions()
        let plan = try RecordMapper(options: options, schema: Schema()).survey([source])
        let typing = RecordBuilder(plan: plan, options: options)
        func header(_ names: String...) -> CSVHeader {
            CSVHeader(columns: names.map { CSVHeader.Column(name: $0, type: nil) })
        }
        let plain = try #require(
            ColumnTyping(
                header: header("title", "latitude", "longitude"), recordType: "Artwork", plan: plan, options: options,
                typing: typing))
        let position = SourcePosition(file: "artworks.csv", line: 2, column: 1)
        let cells = CSVRecord(texts: ["A", "1", "2"], position: position)
        var record = try #require(plain.record(of: cells, at: position, ordinal: 1))
        #expect(plain.lastNameToMake == .byText && record.recordName == "A")  // the title, still to be made a name
        plain.lastNameToMake.make(&record, rowNumber: 0, naming: plan.naming)
        #expect(record.recordName == "A")
        #expect(record.values == [.location(Location(latitude: 1, longitude: 2)), .string("A")])
        // A declared type, a key that is not a field name, a second latitude, a `location` column.
        #expect(
            ColumnTyping(
                header: CSVHeader(columns: [.init(name: "title", type: .string)]), recordType: "Artwork", plan: plan,
                options: options, typing: typing) == nil)
        #expect(
            ColumnTyping(
                header: header("title", "Date Added"), recordType: "Artwork", plan: plan, options: options,
                typing: typing) == nil)
        #expect(
            ColumnTyping(
                header: header("title", "lat", "latitude"), recordType: "Artwork", plan: plan, options: options,
                typing: typing) == nil)
        #expect(
            ColumnTyping(
                header: header("title", "location"), recordType: "Artwork", plan: plan, options: options, typing: typing
            ) == nil)
        #expect(
            ColumnTyping(header: header("title"), recordType: "Artist", plan: plan, options: options, typing: typing)
                == nil)
    }
}
