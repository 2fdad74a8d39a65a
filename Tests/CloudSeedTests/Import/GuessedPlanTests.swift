import CloudSeedTestSupport
import Foundation
import Testing

@testable import CloudSeed
@testable import CloudSeedCore
@testable import CloudSeedReaders
@testable import CloudSeedSchema
@testable import CloudSeedStore

/// A plan guessed from the first rows of each source is written while every row is surveyed, and
/// kept only where all the rows decide the same plan: the store, the summary and the errors are
/// those of the run that reads its sources twice, whether the guess held or missed.
@Suite struct GuessedPlanTests {
    struct Run {
        var tables: [String: [[SQLiteValue]]]
        var summary: String?
        var readOnce: Bool
        var error: String?
        var storeExists: Bool
    }

    /// Imports `files` (name, text) into two new stores: the plan guessed from the first `rows`
    /// records of each source, and read twice.
    /// With `stored`, both stores first hold those files, imported the usual way; with `schema`,
    /// both runs are given that schema, as `seed` gives a manifest's.
    static func importBothWays(
        _ files: [(String, String)], rows: Int, options: MappingOptions = MappingOptions(),
        stored: [(String, String)] = [], schema: String? = nil
    ) throws -> (guessed: Run, twice: Run) {
        let folder = try TemporaryFolder()
        let sources = try files.map { try SourceFile(path: folder.write($0.0, $0.1)) }
        let storedSources = try stored.map { try SourceFile(path: folder.write("stored/\($0.0)", $0.1)) }
        var runs: [Run] = []
        for guessingRows in [rows, nil] {
            let path = folder.path("\(guessingRows.map(String.init) ?? "twice").sqlite")
            if !storedSources.isEmpty {
                _ = try Importer(
                    store: try ContainerStore(backend: SQLiteContainerStore(path: path)), scope: StoreScope(),
                    now: 1_600_000_000_000
                ).run(storedSources)
            }
            var importer = Importer(
                store: try ContainerStore(backend: SQLiteContainerStore(path: path)), scope: StoreScope(),
                options: options,
                now: 1_700_000_000_000)
            importer.guessingRows = guessingRows
            importer.schemaDefinition = try schema.map { try CKSLParser.parse($0) }
            var run = Run(tables: [:], summary: nil, readOnce: false, error: nil, storeExists: false)
            do {
                let summary = try importer.run(sources)
                run.summary = summary.text.replacingOccurrences(
                    of: #"in \d+\.\d+ s"#, with: "", options: .regularExpression)
                run.readOnce = summary.readOnce
            } catch {
                run.error = "\(error)"
            }
            importer = Importer(store: try ContainerStore.inMemory(), scope: StoreScope())  // lets the store go
            run.storeExists = FileManager.default.fileExists(atPath: path)
            if run.storeExists { run.tables = try tables(of: path) }
            runs.append(run)
        }
        return (runs[0], runs[1])
    }

    /// Every column of every record table, quoted by SQLite, in record-name order, and the fields.
    static func tables(of path: String) throws -> [String: [[SQLiteValue]]] {
        let database = try SQLiteDatabase(path: path)
        var tables: [String: [[SQLiteValue]]] = [:]
        for row in try database.rows("SELECT record_type, table_name FROM _cloudseed_record_types") {
            guard case .text(let type) = row[0], case .text(let table) = row[1] else { continue }
            let columns = try database.rows("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(table)]).map {
                row -> String in
                guard case .text(let name) = row[0] else { return "NULL" }
                return "quote(\(SQLIdentifier.quoted(name)))"
            }
            tables[type] = try database.rows(
                "SELECT quote(\"___recordID\"), \(columns.joined(separator: ", ")) FROM \(SQLIdentifier.quoted(table)) ORDER BY \"___recordID\""
            )
        }
        tables["_cloudseed_fields"] = try database.rows(
            "SELECT record_type, field, field_type, column_name FROM _cloudseed_fields ORDER BY 1, 2")
        return tables
    }

    static func expectSame(_ guessed: Run, _ twice: Run) {
        #expect(guessed.tables == twice.tables)
        #expect(guessed.summary == twice.summary)
        #expect(guessed.error == twice.error)
        #expect(guessed.storeExists == twice.storeExists)
        #expect(!twice.readOnce)
    }

    @Test func aGuessThatHoldsReadsOnceAndStoresWhatTwoReadingsStore() throws {
        // Two rows of each source guess the plan; the third Artist, named by the last Artwork, is
        // found because the rows that references point to are all read for the guess.
        let (guessed, twice) = try Self.importBothWays(
            [
                ("artists.csv", ColumnTypingTests.artists),
                (
                    "artworks.csv",
                    #"""
                    catalogNumber,title,artist,created,price,copies,onDisplay,latitude,longitude,notes
                    115,"Harbor at Dusk, ""late""",Zoë Müller,2019-05-04T12:34:56Z,1200.5,3,true,59.33,18.07,oil
                    116,Fenêtre 🔥 漢字,Mei Chen,1969-12-31T23:59:59.999Z,99.5,1,false,-12.5,100.25,""
                    117,"Two
                    lines",美咲 山田,2001-01-01T00:00:00Z,0.25,7,true,1,2,x
                    118,Short,Mei Chen,2002-01-01T00:00:00Z,3.5,2,false,3,4,y

                    """#
                ),
            ], rows: 2)
        #expect(guessed.readOnce)
        Self.expectSame(guessed, twice)
        let artworks = try #require(guessed.tables["Artwork"])
        #expect(artworks.count == 4)
        #expect(guessed.tables["Artist"]?.count == 3)
        #expect(
            guessed.summary?.contains(
                "artist REFERENCE → Artist (inferred: its name and every value name Artist records)") == true)
        #expect(guessed.summary?.contains("named by the natural key {title}, unique in every row") == true)
    }

    @Test func aReferenceColumnsRepeatedCellsChangeNothingTheSurveyLearns() throws {
        // `artist` repeats two names: the typing finds each again by its bytes, and the survey
        // leaves those cells out. A name no Artist has, after them, is refused as two readings refuse
        // it where the field is declared a reference.
        let artworks =
            "catalogNumber,title,artist\n"
            + (1...6).map { "\($0),T\($0),\($0 % 2 == 0 ? "Mei Chen" : "Zoë Müller")" }.joined(separator: "\n")
        let (held, heldTwice) = try Self.importBothWays(
            [("artists.csv", ColumnTypingTests.artists), ("artworks.csv", artworks + "\n")], rows: 2)
        #expect(held.readOnce)
        Self.expectSame(held, heldTwice)
        #expect(held.summary?.contains("artist REFERENCE → Artist") == true)
        let unknown = artworks + "\n7,T7,Nobody Known\n8,T8,Mei Chen\n"
        var pinned = MappingOptions()
        pinned.references = [try ReferenceDeclaration(parsing: "artist:Artist")]
        let (missed, missedTwice) = try Self.importBothWays(
            [("artists.csv", ColumnTypingTests.artists), ("artworks.csv", unknown)], rows: 2, options: pinned)
        Self.expectSame(missed, missedTwice)
        #expect(
            missed.error?.hasSuffix(
                "artworks.csv:8:6: no Artist record matches 'Nobody Known' (closest: Mei Chen, Zoe Muller, mei xiao shan tian); fix the value, or pass MappingOptions.allowDangling to keep it as a reference to a missing record"
            ) == true)
        #expect(missed.tables.isEmpty)
    }

    @Test func documentsAreGuessedToo() throws {
        let lines = (1...9).map { #"{"code": "c\#($0)", "count": \#($0), "price": \#($0).5, "tags": ["a", "b"]}"# }
            .joined(separator: "\n")
        let (guessed, twice) = try Self.importBothWays([("items.jsonl", lines + "\n")], rows: 3)
        #expect(guessed.readOnce)
        Self.expectSame(guessed, twice)
        #expect(
            guessed.tables["_cloudseed_fields"]?.map { $0[1] } == [
                .text("code"), .text("count"), .text("price"), .text("tags"),
            ])
        #expect(guessed.tables["Item"]?.count == 9)
    }

    @Test func aTypeTheLaterRowsChangeIsDecidedOverEveryRow() throws {
        // INT64 in the first rows, text after them: the field is STRING, as two readings decide.
        let (guessed, twice) = try Self.importBothWays(
            [("items.csv", "code,count\nc1,1\nc2,2\nc3,3\nc4,four\n")], rows: 2)
        #expect(!guessed.readOnce)
        Self.expectSame(guessed, twice)
        #expect(
            guessed.tables["_cloudseed_fields"]?.contains([
                .text("Item"), .text("count"), .text("STRING"), .text("count"),
            ]) == true)
        #expect(guessed.tables["Item"]?.last?.last == .text("'four'"))
    }

    /// A kind the column's survey holds already is passed by once told (an integer among reals);
    /// one it does not widens the field (a real among integers), as two readings decide.
    @Test func kindsTheTypingTellsWidenAFieldAsTwoReadingsDo() throws {
        let text =
            "code,price,count,when\nc1,1.5,1,2024-01-02\nc2,2.25,2,2024-01-03\nc3,3,3,2024-01-04\nc4,4,4.5,2024-01-05\nc5,5.5,5,6\n"
        let (guessed, twice) = try Self.importBothWays([("items.csv", text)], rows: 2)
        #expect(!guessed.readOnce)
        Self.expectSame(guessed, twice)
        let fields = guessed.tables["_cloudseed_fields"] ?? []
        #expect(fields.contains([.text("Item"), .text("price"), .text("DOUBLE"), .text("price")]))
        #expect(fields.contains([.text("Item"), .text("count"), .text("DOUBLE"), .text("count")]))
        // A date column with a number after its dates is text, as every reading of it decides.
        #expect(fields.contains([.text("Item"), .text("when"), .text("STRING"), .text("when")]))
        // Integers among the first rows' reals change nothing: the guess holds.
        let (held, heldTwice) = try Self.importBothWays(
            [("items.csv", "code,price\nc1,1.5\nc2,2.25\nc3,3\nc4,4\nc5,5.5\n")], rows: 2)
        #expect(held.readOnce)
        Self.expectSame(held, heldTwice)
    }

    @Test func aFieldTheFirstRowsLackIsPlannedFromTheRest() throws {
        let (guessed, twice) = try Self.importBothWays(
            [("items.csv", "code,count,note\nc1,1,\nc2,2,\nc3,3,late\n")], rows: 2)
        #expect(!guessed.readOnce)
        Self.expectSame(guessed, twice)
        #expect(guessed.tables["_cloudseed_fields"]?.count == 3)
        #expect(guessed.tables["Item"]?.count == 3)
    }

    @Test func aNameTheLaterRowsRepeatIsNotKept() throws {
        // The titles are unique in the first rows, not in all: the records are named by position.
        let (guessed, twice) = try Self.importBothWays([("songs.csv", "title,plays\nA,1\nB,2\nC,3\nA,4\n")], rows: 2)
        #expect(!guessed.readOnce)
        Self.expectSame(guessed, twice)
        #expect(
            guessed.tables["Song"]?.map { $0[0] } == ["Song-1", "Song-2", "Song-3", "Song-4"].map { .text("'\($0)'") })
    }

    @Test func aKeyTheLaterRowsLackIsNotKept() throws {
        let (guessed, twice) = try Self.importBothWays([("songs.csv", "title,plays\nA,1\nB,2\nC,3\n,4\n")], rows: 2)
        #expect(!guessed.readOnce)
        Self.expectSame(guessed, twice)
        #expect(
            guessed.tables["Song"]?.map { $0[0] } == ["Song-1", "Song-2", "Song-3", "Song-4"].map { .text("'\($0)'") })
    }

    @Test func recordsWithAnEmptyNameColumnAreNamedByTheirKey() throws {
        // An `id` column, empty in every row: the titles name the records.
        let (held, heldTwice) = try Self.importBothWays(
            [("songs.csv", "id,title,plays\n,A,1\n,B,2\n,C,3\n,D,4\n")], rows: 2)
        #expect(held.readOnce)
        Self.expectSame(held, heldTwice)
        #expect(held.tables["Song"]?.map { $0[0] } == ["A", "B", "C", "D"].map { .text("'\($0)'") })
        // One later row sets it: read twice, the same as two readings.
        let (missed, missedTwice) = try Self.importBothWays(
            [("songs.csv", "id,title,plays\n,A,1\n,B,2\n,C,3\nx9,D,4\n")], rows: 2)
        Self.expectSame(missed, missedTwice)
    }

    @Test func recordsNamedByTheirNameColumnAreSurveyedByTheirNames() throws {
        let (held, heldTwice) = try Self.importBothWays(
            [("songs.csv", "recordName,title,plays\nsong-é,A,1\nsong-2,A,2\nsong-3,C,3\nsong-4,C,4\n")], rows: 2)
        #expect(held.readOnce)
        Self.expectSame(held, heldTwice)
        #expect(held.summary?.contains("named by the 'recordName' column") == true)
        #expect(
            held.tables["Song"]?.map { $0[0] } == ["song-2", "song-3", "song-4", "song-e"].map { .text("'\($0)'") })
        // A name the later rows repeat (once made ASCII), or a row without one: as two readings decide.
        for later in ["song-e,D,4", ",D,4"] {
            let (missed, missedTwice) = try Self.importBothWays(
                [("songs.csv", "recordName,title,plays\nsong-é,A,1\nsong-2,B,2\nsong-3,C,3\n\(later)\n")], rows: 2)
            #expect(!missed.readOnce)
            Self.expectSame(missed, missedTwice)
        }
    }

    @Test func recordsNamedByATemplateAreSurveyedByTheirNames() throws {
        let options = MappingOptions(nameTemplates: [try NameTemplate(parsing: "Song=song-{code}")])
        let (held, heldTwice) = try Self.importBothWays(
            [("songs.csv", "code,title\nø,A\n2,A\n3,B\n4,B\n")], rows: 2, options: options)
        #expect(held.readOnce)
        Self.expectSame(held, heldTwice)
        #expect(held.summary?.contains(#"named by the name template "song-{code}""#) == true)
        #expect(
            held.tables["Song"]?.map { $0[0] } == ["song-2", "song-3", "song-4", "song-o"].map { .text("'\($0)'") })
        // A name the later rows repeat: refused as two readings refuse it.
        let (missed, missedTwice) = try Self.importBothWays(
            [("songs.csv", "code,title\nø,A\n2,A\n3,B\no,B\n")], rows: 2, options: options)
        Self.expectSame(missed, missedTwice)
        #expect(missed.error != nil)
    }

    @Test func aRunGivenASchemaIsGuessedToo() throws {
        let schema = """
            DEFINE SCHEMA
                RECORD TYPE Item (
                    "___recordID" REFERENCE QUERYABLE,
                    code STRING,
                    count INT64,
                    GRANT WRITE TO "_creator",
                    GRANT CREATE TO "_icloud",
                    GRANT READ TO "_world"
                );
            """
        let (held, heldTwice) = try Self.importBothWays(
            [("items.csv", "code,count\nc1,1\nc2,2\nc3,3\n")], rows: 2, schema: schema)
        #expect(held.readOnce)
        Self.expectSame(held, heldTwice)
        #expect(held.tables["Item"]?.count == 3)
        // A field the schema lacks, set only after the first rows: read twice, the same as two readings.
        let (missed, missedTwice) = try Self.importBothWays(
            [("items.csv", "code,count,note\nc1,1,\nc2,2,\nc3,3,late\n")], rows: 2, schema: schema)
        Self.expectSame(missed, missedTwice)
        #expect(missed.tables["_cloudseed_fields"]?.count == 3)
    }

    @Test func aBadValueAfterTheFirstRowsIsReportedAsTwoReadingsReportIt() throws {
        // A pinned type, then a value it cannot take: the same error, nothing written.
        let options = MappingOptions(fieldTypes: [FieldTypeOverride(field: "count", type: .int64)])
        let (guessed, twice) = try Self.importBothWays(
            [("items.csv", "code,count\nc1,1\nc2,2\nc3,3\nc4,four\n")], rows: 2, options: options)
        Self.expectSame(guessed, twice)
        #expect(
            guessed.error?.contains(
                "items.csv:5:4: invalid attempt to set value type STRING for field 'count' for type 'Item', defined to be: INT64"
            ) == true)
        #expect(!guessed.storeExists)
    }

    @Test func aRecordTypeTheStoreHasIsReadOnceWhereTheGuessHolds() throws {
        let folder = try TemporaryFolder()
        let source = try SourceFile(path: folder.write("items.csv", "code,count\nc1,1\nc2,2\n"))
        let store = try SQLiteContainerStore(path: folder.path("store.sqlite"))
        var importer = Importer(store: ContainerStore(backend: store), scope: StoreScope(), now: 1_700_000_000_000)
        importer.guessingRows = 1
        #expect(try importer.run([source]).readOnce)
        let again = try importer.run([source])
        #expect(again.readOnce)
        #expect(again.counts.map(\.unchanged) == [2])
    }

    @Test func firstRowsThatAreEveryRowAreThePlanWithoutACheck() throws {
        // Fewer records than the guess takes: the guess is the plan two readings decide first,
        // written without surveying the rows again; a change file into stored types, with references.
        let artists = "firstName,lastName,born\nAda,Lovelace,1815-12-10\nAlan,Turing,1912-06-23\n"
        let artworks = "title,artist,price\nEngine,Ada Lovelace,10\nMachine,Alan Turing,20\n"
        let (guessed, twice) = try Self.importBothWays(
            [("artworks.csv", "title,artist,price\nMachine,Alan Turing,25\nNotes,Ada Lovelace,5\n")], rows: 10_000,
            stored: [("artists.csv", artists), ("artworks.csv", artworks)])
        #expect(guessed.readOnce)
        Self.expectSame(guessed, twice)
        #expect(guessed.summary?.contains("  Artwork             1         1         0         0") == true)
        #expect(guessed.tables["Artwork"]?.count == 3)
    }

    @Test func changesToStoredRecordsStoreWhatTwoReadingsStore() throws {
        let artists =
            "firstName,lastName,born\nAda,Lovelace,1815-12-10\nAlan,Turing,1912-06-23\nGrace,Hopper,1906-12-09\n"
        let artworks = "title,artist,price\nEngine,Ada Lovelace,10\nMachine,Alan Turing,20\nCompiler,Grace Hopper,30\n"
        let stored = [("artists.csv", artists), ("artworks.csv", artworks)]
        // One price changed, one artwork added after the first rows: the guess holds.
        let (held, heldTwice) = try Self.importBothWays(
            [
                (
                    "artworks.csv",
                    "title,artist,price\nEngine,Ada Lovelace,10\nMachine,Alan Turing,25\nCompiler,Grace Hopper,30\nNotes,Ada Lovelace,5\n"
                )
            ],
            rows: 2, stored: stored)
        #expect(held.readOnce)
        Self.expectSame(held, heldTwice)
        #expect(held.summary?.contains("  Artwork             1         1         2         0") == true)
        // A stored field's type changed by a later row: refused as two readings refuse it.
        let (refused, refusedTwice) = try Self.importBothWays(
            [
                (
                    "artworks.csv",
                    "title,artist,price\nEngine,Ada Lovelace,10\nMachine,Alan Turing,20\nCompiler,Grace Hopper,free\n"
                )
            ],
            rows: 2, stored: stored)
        Self.expectSame(refused, refusedTwice)
        #expect(
            refused.error?.contains(
                "invalid attempt to set value type STRING for field 'price' for type 'Artwork', defined to be: INT64; the store's schema defines 'price' as INT64: fix the value"
            ) == true)
        #expect(refused.tables["Artwork"]?.count == 3)
        // A new field met only in a later row: planned from every row.
        let (late, lateTwice) = try Self.importBothWays(
            [
                (
                    "artworks.csv",
                    "title,artist,price,room\nEngine,Ada Lovelace,10,\nMachine,Alan Turing,20,\nCompiler,Grace Hopper,30,B2\n"
                )
            ],
            rows: 2, stored: stored)
        #expect(!late.readOnce)
        Self.expectSame(late, lateTwice)
        #expect(
            late.tables["_cloudseed_fields"]?.contains([
                .text("Artwork"), .text("room"), .text("STRING"), .text("room"),
            ]) == true)
    }
}
