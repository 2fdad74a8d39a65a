import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// CSV records are typed where they are read (``ColumnTyping``), named by their type's rule and
/// stored with every value as the plan types it; a record whose cells cannot be typed is refused
/// in CloudKit's words.
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
                return "quote(\(SQLIdentifier.quoted(name)))"
            }
            guard !columns.isEmpty else { continue }
            tables[table] = try database.rows(
                "SELECT quote(\"___recordID\"), \(columns.joined(separator: ", ")) FROM \(SQLIdentifier.quoted(table)) ORDER BY \"___recordID\""
            )
        }
        tables["_cloudseed_fields"] = try database.rows(
            "SELECT record_type, field, field_type, column_name FROM _cloudseed_fields ORDER BY 1, 2")
        return tables
    }

    /// What an import of `files` (name, text) into a new store gave: every record table's rows
    /// (``tables(of:)``), its summary and the rows it rejected, as JSON Lines (their files named
    /// without the folder).
    struct Imported {
        var tables: [String: [[SQLiteValue]]]
        var summary: ImportSummary
        var rejected: [String]

        /// The rows of the record table `table`, a line each: the record name, the change tag and
        /// the fields' columns, quoted, apart by ` | ` (the zone, the times and the users left out).
        func rows(_ table: String) -> String {
            (tables[table] ?? []).map { row in
                ([row[0]] + row[7...]).map { value in
                    guard case .text(let text) = value else { return "\(value)" }
                    return text
                }.joined(separator: " | ")
            }.joined(separator: "\n")
        }
    }

    static func imported(_ files: [(String, String)], options: MappingOptions = MappingOptions()) throws -> Imported {
        let folder = try TemporaryFolder()
        let sources = try files.map { try SourceFile(path: folder.write($0.0, $0.1)) }
        let path = folder.path("store.sqlite")
        let importer = Importer(
            store: try ContainerStore(backend: SQLiteContainerStore(path: path)), scope: StoreScope(), options: options,
            now: 1_700_000_000_000)
        var rejected: [String] = []
        let summary = try importer.run(
            sources, rejected: { rejected += $0.jsonLines(wordingOptions: { $0.libraryWording }) })
        return Imported(
            tables: try tables(of: path), summary: summary,
            rejected: rejected.map { $0.replacingOccurrences(of: folder.url.path + "/", with: "") })
    }

    @Test func recordsTypedWhereReadAreStoredWithEveryValue() throws {
        let result = try Self.imported([("artists.csv", Self.artists), ("artworks.csv", Self.artworks)])
        #expect(result.rows("Artwork") == Self.expected["typed.Artwork"])
        #expect(result.rows("Artist") == Self.expected["typed.Artist"])
        #expect(result.tables["_cloudseed_fields"]?.count == 13)
        let artworks = try #require(result.tables["Artwork"])
        #expect(artworks.count == 4)
        #expect(
            artworks.map { $0[0] } == [
                .text("'Fenetre  han zi'"), .text("'Harbor at Dusk, \"late\"'"), .text("'Short'"),
                .text("'Two\nlines'"),
            ])
        #expect(result.summary.plan.recordType("Artwork")?.namingRule == .naturalKey("title"))
        #expect(result.summary.plan.recordType("Artwork")?.fields["artist"]?.type == .reference)
        #expect(result.summary.plan.recordType("Artist")?.namingRule == .naturalKey("{firstName} {lastName}"))
        #expect(
            result.tables["Artist"]?.map { $0[0] } == [
                .text("'Mei Chen'"), .text("'Zoe Muller'"), .text("'mei xiao shan tian'"),
            ])
    }

    @Test func recordsNamedByANameColumnKeepItOutOfTheirFields() throws {
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
        let result = try Self.imported([("artists.csv", artists), ("artworks.csv", artworks)])
        #expect(result.rows("Artwork") == Self.expected["namecol.Artwork"])
        #expect(result.summary.plan.recordType("Artist")?.namingRule == .column("recordName"))
        #expect(result.summary.plan.recordType("Artwork")?.namingRule == .position)
        #expect(
            result.tables["Artwork"]?.map { $0[0] } == [.text("'Artwork-3'"), .text("'Krakow-7'"), .text("'a8'")])
        #expect(result.tables["Artist"]?.map { $0[0] } == [.text("'Zoe-1'"), .text("'mei'")])
        #expect(
            result.tables["_cloudseed_fields"]?.compactMap { row -> String? in
                guard case .text(let type) = row[0], type == "Artwork", case .text(let field) = row[1] else {
                    return nil
                }
                return field
            } == ["artist", "caption", "id", "price"])
    }

    @Test func recordsNamedByATemplateAreNamedByItsFilledText() throws {
        var options = MappingOptions()
        options.nameTemplates = [
            try NameTemplate(parsing: "Artwork={catalogNumber} {title}"),
            try NameTemplate(parsing: "Artist={lastName}"),
        ]
        let result = try Self.imported(
            [("artists.csv", Self.artists), ("artworks.csv", Self.artworks)], options: options)
        #expect(
            result.summary.plan.recordType("Artwork")?.namingRule
                == .template(try NameTemplate(parsing: "Artwork={catalogNumber} {title}")))
        #expect(
            result.tables["Artwork"]?.map { $0[0] } == [
                .text("'115 Harbor at Dusk, \"late\"'"), .text("'116 Fenetre  han zi'"), .text("'117 Two\nlines'"),
                .text("'118 Short'"),
            ])
        #expect(
            result.tables["Artist"]?.map { $0[0] } == [.text("'Chen'"), .text("'Muller'"), .text("'shan tian'")])
    }

    /// Imports `artists` and `first` (a file name and its text) into a new store, then the same
    /// again, then `artists` and `second` (the same name): the counts of the last two runs
    /// (created, updated, unchanged per type) and the store's Artwork rows (``Imported/rows(_:)``).
    static func reimported(
        first: (String, String), second: String
    ) throws -> (again: [[Int]], changed: [[Int]], artworks: String) {
        let folder = try TemporaryFolder()
        let artists = try SourceFile(path: folder.write("artists.csv", Self.artists))
        let firstSource = try SourceFile(path: folder.write("first/\(first.0)", first.1))
        let secondSource = try SourceFile(path: folder.write("second/\(first.0)", second))
        let path = folder.path("store.sqlite")
        let store = try SQLiteContainerStore(path: path)
        func counts(_ summary: ImportSummary) -> [[Int]] {
            summary.counts.map { [$0.created, $0.updated, $0.unchanged] }
        }
        _ = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 1_700_000_000_000).run([
            artists, firstSource,
        ])
        let again = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 1_700_000_000_001)
            .run([
                artists, firstSource,
            ])
        let changed = try Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 1_700_000_000_002)
            .run([
                artists, secondSource,
            ])
        let tables = Imported(tables: try tables(of: path), summary: changed, rejected: [])
        return (counts(again), counts(changed), tables.rows("Artwork"))
    }

    @Test func reimportedRecordsAreComparedWithTheStoredOnes() throws {
        // The same files again: nothing changes; then one artwork's price and another's notes
        // change: two updates, the rest unchanged.
        let changed = Self.artworks.replacingOccurrences(of: ",1200.5,", with: ",1300,").replacingOccurrences(
            of: "0.25,,true,,,", with: "0.25,,true,,,new")
        let result = try Self.reimported(first: ("artworks.csv", Self.artworks), second: changed)
        #expect(result.again == [[0, 0, 3], [0, 0, 4]])
        #expect(result.changed == [[0, 0, 3], [0, 2, 2]])
        #expect(result.artworks == Self.expected["reimport.Artwork"])
    }

    @Test func recordsNamedByPositionMakeALocationOfColumnsApart() throws {
        // Two rows share a title, so Artworks are named by position; the latitude and longitude columns are apart.
        let csv = "latitude,title,copies,longitude\n1.5,Same,2,3\n,Same,,4\n-1,Other,7,-2\n"
        let result = try Self.imported([("artworks.csv", csv)])
        #expect(result.rows("Artwork") == Self.expected["position.Artwork"])
        #expect(
            result.summary.plan.recordType("Artwork")?.fields.keys.sorted() == [
                "copies", "location", "longitude", "title",
            ])
    }

    @Test func fieldsOfOneTypeInTwoSourcesAreDecidedOverBoth() throws {
        // Two CSV sources of one type: `copies` integers in one, a real in the other (DOUBLE).
        // `gallery` names Gallery records, a type a document before them brings in, which the
        // columns' survey learns of only when the rows reach the type's: their values are gathered again.
        let galleries =
            #"{"records": [{"recordName": "North", "recordType": "Gallery", "fields": {"city": {"value": "Oslo"}}}, "#
            + #"{"recordName": "South", "recordType": "Gallery", "fields": {"city": {"value": "Rome"}}}]}"#
        let result = try Self.imported([
            ("catalogue.json", galleries),
            ("a/artworks.csv", "title,copies,gallery\nOne,1,North\nTwo,2,South\n"),
            ("b/artworks.csv", "title,copies,gallery\nThree,2.5,North\n"),
        ])
        let artwork = try #require(result.summary.plan.recordType("Artwork"))
        #expect(artwork.fields["copies"]?.type == .double)
        #expect(artwork.fields["gallery"]?.type == .reference)
        #expect(artwork.fields["gallery"]?.target == "Gallery")
        #expect(result.rows("Artwork") == Self.expected["twosources.Artwork"])
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
        let result = try Self.imported([("artworks.csv", csv), ("a.png", "png"), ("b.png", "png")])
        let fields = try #require(result.summary.plan.recordType("Artwork")).fields.mapValues(\.type)
        #expect(
            fields == [
                "title": .string, "flag": .int64, "when": .timestamp, "count": .double, "code": .string, "big": .string,
                "word": .string,
                "photo": .asset,
            ])
        #expect(result.rows("Artwork") == Self.expected["bytes.Artwork"])
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

    @Test func aRecordWhoseCellsCannotBeTypedIsRefusedWithWhy() throws {
        // copies pinned to INT64: the second row's "two" is refused at its cell, and with
        // --skip-bad-rows the other rows are saved.
        let csv = "title,copies\nOne,1\nTwo,two\nThree,3\n"
        var options = MappingOptions(fieldTypes: [FieldTypeOverride(field: "copies", type: .int64)])
        options.skipBadRows = true
        let result = try Self.imported([("artworks.csv", csv)], options: options)
        #expect(result.rows("Artwork") == Self.expected["refused.Artwork"])
        #expect(
            result.rejected == [
                #"{"file":"artworks.csv","line":3,"column":5,"recordType":"Artwork","reason":"invalid attempt to set value type STRING for field 'copies' for type 'Artwork', defined to be: INT64; fix the value or change the field type 'copies:INT64'"}"#
            ])
        #expect(result.summary.counts.map(\.refused) == [1])
    }

    @Test func aRecordOverCloudKitsSizeIsRefusedByItsName() throws {
        // Two cells of 600,000 bytes each are over the 1 MB a record may take.
        let big = String(repeating: "x", count: 600_000)
        let csv = "title,front,back\nSmall,a,b\nLarge,\(big),\(big)\n"
        var options = MappingOptions()
        options.skipBadRows = true
        let result = try Self.imported([("artworks.csv", csv)], options: options)
        #expect(result.tables["Artwork"]?.map { $0[0] } == [.text("'Small'")])
        #expect(
            result.rejected == [
                #"{"file":"artworks.csv","line":3,"column":1,"recordType":"Artwork","reason":"record 'Large' of type Artwork is 1200005 bytes, over CloudKit's limit of 1048576 bytes; move large values into an ASSET field"}"#
            ])
    }

    @Test func theTypingTakesAPlainHeaderAndLeavesTheOthersToRows() throws {
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

    /// The expected rows of the tests' tables (``Imported/rows(_:)``), by test and table.
    static let expected: [String: String] = [
        "typed.Artwork": #"""
        'Fenetre  han zi' | '5' | 'Mei Chen' | 116 | 1 | '1969-12-31T23:59:59.999Z' | -12.5 | NULL | '' | 0 | 99.0 | 'Fenêtre 🔥 漢字'
        'Harbor at Dusk, "late"' | '4' | 'Zoe Muller' | 115 | 3 | '2019-05-04T12:34:56.000Z' | NULL | '{"latitude":59.33,"longitude":18.07}' | 'oil' | 1 | 1200.5 | 'Harbor at Dusk, "late"'
        'Short' | '7' | 'Mei Chen' | 118 | NULL | NULL | NULL | NULL | NULL | NULL | NULL | 'Short'
        'Two
        lines' | '6' | 'mei xiao shan tian' | 117 | NULL | '2001-01-01T00:00:00.000Z' | NULL | NULL | NULL | 1 | 0.25 | 'Two
        lines'
        """#,
        "typed.Artist": #"""
        'Mei Chen' | '2' | '1980-11-30T00:00:00.000Z' | 'Mei' | 'Chen'
        'Zoe Muller' | '1' | '1971-03-02T00:00:00.000Z' | 'Zoë' | 'Müller'
        'mei xiao shan tian' | '3' | '1990-01-01T00:00:00.000Z' | '美咲' | '山田'
        """#,
        "namecol.Artwork": #"""
        'Artwork-3' | '5' | 'mei' | 'Fenêtre' | NULL | 3.0
        'Krakow-7' | '3' | 'Zoe-1' | 'Harbor, "late"' | 'a7' | 1200.5
        'a8' | '4' | 'mei' | 'Fenêtre' | 'a8' | 99.0
        """#,
        "position.Artwork": #"""
        'Artwork-1' | '1' | 2 | '{"latitude":1.5,"longitude":3.0}' | NULL | 'Same'
        'Artwork-2' | '2' | NULL | NULL | 4 | 'Same'
        'Artwork-3' | '3' | 7 | '{"latitude":-1.0,"longitude":-2.0}' | NULL | 'Other'
        """#,
        "twosources.Artwork": #"""
        'One' | '3' | 1.0 | 'North' | 'One'
        'Three' | '5' | 2.5 | 'North' | 'Three'
        'Two' | '4' | 2.0 | 'South' | 'Two'
        """#,
        "bytes.Artwork": #"""
        'One' | '1' | '1e400' | '007' | 1.0 | 1 | '8f8cbb7dcf46e0bc7d53265749a6c17d116093a6ba95e442764060c76fd4a86c' | 'One' | '2020-01-02T00:00:00.000Z' | 'tree'
        'Three' | '3' | NULL | NULL | 3.5 | 1 | '8f8cbb7dcf46e0bc7d53265749a6c17d116093a6ba95e442764060c76fd4a86c' | 'Three' | NULL | ''
        'Two' | '2' | '2.5' | '12' | -2.0 | 0 | '8f8cbb7dcf46e0bc7d53265749a6c17d116093a6ba95e442764060c76fd4a86c' | 'Two' | '2020-01-02T03:04:05.000Z' | 'Ñandú'
        """#,
        "refused.Artwork": #"""
        'One' | '1' | 1 | 'One'
        'Three' | '2' | 3 | 'Three'
        """#,
        "refusedjson.Artwork": #"""
        'One' | '1' | 1 | 'One'
        'Three' | '2' | 3 | 'Three'
        """#,
        "jsontyped.Artwork": #"""
        'Code' | '9' | 'Mei Chen' | 120 | 5 | '2003-01-01T00:00:00.000Z' | NULL | '{"latitude":5.0,"longitude":6.0}' | '0012' | NULL | NULL | 1 | 4.0 | '["y"]' | 'Code'
        'Fenetre  han zi' | '5' | 'Mei Chen' | 116 | 1 | '1969-12-31T23:59:59.999Z' | -12.5 | NULL | '' | NULL | NULL | 0 | 99.0 | NULL | 'Fenêtre 🔥 漢字'
        'Harbor at Dusk, "late"' | '4' | 'Zoe Muller' | 115 | 3 | '2019-05-04T12:34:56.000Z' | NULL | '{"latitude":59.33,"longitude":18.07}' | 'oil' | NULL | NULL | 1 | 1200.5 | '["oil","sea"]' | 'Harbor at Dusk, "late"'
        'Nested' | '8' | 'Mei Chen' | 119 | 2 | '2002-01-01T00:00:00.000Z' | NULL | '{"latitude":3.0,"longitude":4.0}' | NULL | 'curator' | 'n' | 0 | 3.5 | '["x"]' | 'Nested'
        'Reordered' | '7' | 'Mei Chen' | 118 | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | 'Reordered'
        'Two
        lines e' | '6' | 'mei xiao shan tian' | 117 | NULL | '2001-01-01T00:00:00.000Z' | NULL | '{"latitude":10.0,"longitude":2.0}' | 'x' | NULL | NULL | 1 | 0.25 | '["a"]' | 'Two
        lines é'
        """#,
        "reimport.Artwork": #"""
        'Fenetre  han zi' | '5' | 'Mei Chen' | 116 | 1 | '1969-12-31T23:59:59.999Z' | -12.5 | NULL | '' | 0 | 99.0 | 'Fenêtre 🔥 漢字'
        'Harbor at Dusk, "late"' | '8' | 'Zoe Muller' | 115 | 3 | '2019-05-04T12:34:56.000Z' | NULL | '{"latitude":59.33,"longitude":18.07}' | 'oil' | 1 | 1300.0 | 'Harbor at Dusk, "late"'
        'Short' | '7' | 'Mei Chen' | 118 | NULL | NULL | NULL | NULL | NULL | NULL | NULL | 'Short'
        'Two
        lines' | '9' | 'mei xiao shan tian' | 117 | NULL | '2001-01-01T00:00:00.000Z' | NULL | NULL | 'new' | 1 | 0.25 | 'Two
        lines'
        """#,
        "jsonreimport.Artwork": #"""
        'Code' | '9' | 'Mei Chen' | 120 | 5 | '2003-01-01T00:00:00.000Z' | NULL | '{"latitude":5.0,"longitude":6.0}' | '0012' | NULL | NULL | 1 | 4.0 | '["y"]' | 'Code'
        'Fenetre  han zi' | '5' | 'Mei Chen' | 116 | 1 | '1969-12-31T23:59:59.999Z' | -12.5 | NULL | '' | NULL | NULL | 0 | 99.0 | NULL | 'Fenêtre 🔥 漢字'
        'Harbor at Dusk, "late"' | 'a' | 'Zoe Muller' | 115 | 3 | '2019-05-04T12:34:56.000Z' | NULL | '{"latitude":59.33,"longitude":18.07}' | 'oil' | NULL | NULL | 1 | 1300.0 | '["oil","sea"]' | 'Harbor at Dusk, "late"'
        'Nested' | '8' | 'Mei Chen' | 119 | 2 | '2002-01-01T00:00:00.000Z' | NULL | '{"latitude":3.0,"longitude":4.0}' | NULL | 'curator' | 'n' | 0 | 3.5 | '["x"]' | 'Nested'
        'Reordered' | '7' | 'Mei Chen' | 118 | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | 'Reordered'
        'Two
        lines e' | 'b' | 'mei xiao shan tian' | 117 | NULL | '2001-01-01T00:00:00.000Z' | NULL | '{"latitude":10.0,"longitude":2.0}' | 'new' | NULL | NULL | 1 | 0.25 | '["a"]' | 'Two
        lines é'
        """#,
    ]
}
